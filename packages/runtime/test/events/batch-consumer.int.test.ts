import { randomUUID } from 'node:crypto';
import { verificationEventsV1 } from '@eligo/proto';
import type { Knex } from 'knex';
import type { Transaction } from '../../src/db/transaction';
import { buildCloudEventHeaders, eventType, topicFor } from '../../src/events/cloudevents';
import type { EventCounter } from '../../src/events/counters';
import type { BusMessage, EventBus, Subscription } from '../../src/events/event-bus';
import { createEventConsumer, eventHandler } from '../../src/events/event-consumer';
import type { KafkaEventBus } from '../../src/events/kafka-bus';
import { listParkedEvents, parkedEventsMigration } from '../../src/events/parked-events';
import {
  count,
  createEventSchema,
  dropSchema,
  randomName,
  stepChangedPayload,
  testBus,
  testDb,
  testInfra,
  testLogger,
  waitFor,
} from './helpers';

const { VerificationStepChanged } = verificationEventsV1;
const EVENT = 'VerificationStepChanged';

/**
 * Events that are ready together are applied in one transaction per batch (one BEGIN, one inbox statement,
 * one COMMIT for all of them) with the same exactly-once effects as one at a time: a ce_id seen before or
 * repeated within the batch is a duplicate, a ce_id in upper case is still new, and an event that cannot be
 * applied sends the batch back one event at a time, where it alone is parked.
 */
describe.each(['in-process', 'kafka'] as const)('a consumer on the %s bus given a backlog', (kind) => {
  const infra = testInfra();
  const logger = testLogger();
  let service: string;
  let topic: string;
  let db: Knex;
  let bus: EventBus;
  const topics: string[] = [];
  let schema: string;
  let totals: Map<string, number>;
  const running: Subscription[] = [];

  const event = (key: string, step: string, id: string = randomUUID()): BusMessage => ({
    topic,
    key,
    value: Buffer.from(stepChangedPayload(key, step)),
    headers: buildCloudEventHeaders({ service, eventName: EVENT, subject: key, id }),
  });

  /** A consumer that records each applied step and the transaction it was applied in. */
  const consume = async (transactions: Transaction[]): Promise<void> => {
    const onCount: EventCounter = (name, _l, value) => totals.set(name, (totals.get(name) ?? 0) + value);
    const consumer = await createEventConsumer({
      bus,
      db,
      schema,
      name: 'projection',
      topics: [topic],
      logger,
      onCount,
      maxAttempts: 2,
      handlers: {
        [eventType(service, EVENT)]: eventHandler(VerificationStepChanged, async (e, { trx, event }) => {
          transactions.push(trx);
          await trx
            .withSchema(schema)
            .table('effects')
            .insert({ key: e.currentStep, seq: 1, ce_id: event.id });
          if (e.currentStep === 'poison') throw new Error('this event can never be applied');
        }),
      },
    });
    running.push(consumer);
  };

  /**
   * A consumer whose handler only collects the step, and writes what a transaction collected with one insert
   * before it commits (beforeCommit); that write fails when it holds the step 'hook-poison'.
   */
  const consumeCollected = async (writes: number[]): Promise<void> => {
    const onCount: EventCounter = (name, _l, value) => totals.set(name, (totals.get(name) ?? 0) + value);
    const collected = new WeakMap<Transaction, { key: string; ce_id: string }[]>();
    const consumer = await createEventConsumer({
      bus,
      db,
      schema,
      name: 'collected',
      topics: [topic],
      logger,
      onCount,
      maxAttempts: 2,
      handlers: {
        [eventType(service, EVENT)]: eventHandler(
          VerificationStepChanged,
          async (e, { trx, event, beforeCommit }) => {
            let rows = collected.get(trx);
            if (!rows) {
              const mine: { key: string; ce_id: string }[] = [];
              collected.set(trx, (rows = mine));
              beforeCommit(async () => {
                writes.push(mine.length);
                await trx
                  .withSchema(schema)
                  .table('effects')
                  .insert(mine.map((r) => ({ ...r, seq: mine.length })));
                if (mine.some((r) => r.key === 'hook-poison')) throw new Error('the collected write failed');
              });
            }
            rows.push({ key: e.currentStep, ce_id: event.id });
          },
        ),
      },
    });
    running.push(consumer);
  };

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    bus = testBus(kind, randomName('batch'));
  }, 60_000);

  beforeEach(async () => {
    service = randomName('svc');
    topic = topicFor(service);
    await bus.ensureTopics([topic], { partitions: 1 });
    topics.push(topic);
    schema = randomName('batch_');
    totals = new Map();
    await createEventSchema(db, schema);
    await parkedEventsMigration.up(db, schema);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
    await dropSchema(db, schema);
  });

  afterAll(async () => {
    if (kind === 'kafka') await (bus as KafkaEventBus).deleteTopics(topics);
    await bus?.close();
    await db?.destroy();
  });

  const applied = async (): Promise<string[]> =>
    (await db.withSchema(schema).table('effects').select('key').orderBy('id')).map(
      (r: { key: string }) => r.key,
    );

  it('applies the backlog in fewer transactions than events, each event once, duplicates skipped', async () => {
    const repeated = randomUUID();
    const steps = Array.from({ length: 40 }, (_, i) => `s${i + 1}`);
    await bus.publish([
      ...steps.slice(0, 20).map((step) => event('v1', step)),
      event('v1', 'repeated', repeated),
      event('v1', 'repeated', repeated), // a relay that published the same event twice
      event('v1', 'upper', randomUUID().toUpperCase()),
      ...steps.slice(20).map((step) => event('v1', step)),
    ]);
    const transactions: Transaction[] = [];
    await consume(transactions);
    await waitFor('the whole backlog', async () => (await count(db, schema, 'inbox')) === 42);

    const expected = [...steps.slice(0, 20), 'repeated', 'upper', ...steps.slice(20)];
    await waitFor('the counts', async () => (totals.get('inbox_applied') ?? 0) === 42);
    expect(await applied()).toEqual(expected);
    expect(totals.get('inbox_duplicates')).toBe(1);
    // One transaction per event before batching: 42 here.
    expect(new Set(transactions).size).toBeLessThan(10);
  }, 60_000);

  it('parks the one event of a batch that cannot be applied and applies the others once', async () => {
    await bus.publish(['before', 'poison', 'after'].map((step) => event('v2', step)));
    await consume([]);
    await waitFor('the event after the poisoned one', async () => (await applied()).includes('after'));
    expect(await applied()).toEqual(['before', 'after']); // the failed batch and attempts rolled back
    const parked = await listParkedEvents(db, schema, { limit: 10 });
    expect(parked).toHaveLength(1);
    expect(parked[0]!.error).toContain('this event can never be applied');
    expect(totals.get('inbox_applied')).toBe(2);
    expect(totals.get('inbox_parked')).toBe(1);
  }, 60_000);

  it('runs what handlers register with beforeCommit once per transaction, before it commits', async () => {
    const steps = Array.from({ length: 30 }, (_, i) => `c${i + 1}`);
    await bus.publish([...steps.slice(0, 15), 'hook-poison', ...steps.slice(15)].map((s) => event('v3', s)));
    const writes: number[] = [];
    await consumeCollected(writes);
    await waitFor('every event but the poisoned one', async () => (await applied()).length === 30);
    await waitFor('the poisoned one parked', async () => totals.get('inbox_parked') === 1);
    expect(await applied()).toEqual(steps);
    // Batches wrote many events with one insert; the batch holding the poisoned event fell back to one at a time.
    expect(Math.max(...writes)).toBeGreaterThan(1);
    expect(writes.filter((n) => n === 1).length).toBeGreaterThanOrEqual(2);
    expect(await count(db, schema, 'inbox')).toBe(30);
  }, 60_000);
  it('ignores the events a handler does not accept: no transaction, no inbox row', async () => {
    const steps = ['a1', 'skip-1', 'a2', 'skip-2', 'skip-3', 'a3'];
    await bus.publish(steps.map((step) => event('v4', step)));
    const transactions: Transaction[] = [];
    const onCount: EventCounter = (name, _l, value) => totals.set(name, (totals.get(name) ?? 0) + value);
    running.push(
      await createEventConsumer({
        bus,
        db,
        schema,
        name: 'selective',
        topics: [topic],
        logger,
        onCount,
        handlers: {
          [eventType(service, EVENT)]: eventHandler(
            VerificationStepChanged,
            async (e, { trx, event }) => {
              transactions.push(trx);
              await trx
                .withSchema(schema)
                .table('effects')
                .insert({ key: e.currentStep, seq: 1, ce_id: event.id });
            },
            (e) => !e.currentStep.startsWith('skip'),
          ),
        },
      }),
    );
    await waitFor('the accepted events', async () => (await applied()).length === 3);
    await waitFor('the counts', async () => (totals.get('inbox_ignored') ?? 0) === 3);
    expect(await applied()).toEqual(['a1', 'a2', 'a3']);
    expect(await count(db, schema, 'inbox')).toBe(3);
    expect(totals.get('inbox_applied')).toBe(3);

    // A lone event the handler does not accept opens no transaction either.
    const before = transactions.length;
    await bus.publish([event('v4', 'skip-4')]);
    await waitFor('it counted', async () => totals.get('inbox_ignored') === 4);
    expect(transactions.length).toBe(before);
    expect(await count(db, schema, 'inbox')).toBe(3);
  }, 60_000);
});
