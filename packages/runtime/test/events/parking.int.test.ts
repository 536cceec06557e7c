import { status as Status } from '@grpc/grpc-js';
import { verificationEventsV1 } from '@eligo/proto';
import type { Knex } from 'knex';
import { topicFor, eventType } from '../../src/events/cloudevents';
import type { EventCounter } from '../../src/events/counters';
import type { EventBus, Subscription } from '../../src/events/event-bus';
import { createEventConsumer, eventHandler, type EventHandler } from '../../src/events/event-consumer';
import { enqueueEvent } from '../../src/events/outbox';
import { OutboxRelay } from '../../src/events/outbox-relay';
import { listParkedEvents, parkedEventsMigration } from '../../src/events/parked-events';
import { GrpcCallError } from '../../src/grpc/error-codec';
import { ParkedEventsRegistry } from '../../src/module/parked-events-service';
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
 * A poisoned event (one its consumer can never apply) is parked after ELIGO_EVENT_MAX_ATTEMPTS failures and
 * the events behind it are applied; an outage is retried as long as it lasts instead; a replay after the
 * cause is fixed applies the parked event exactly once.
 */
describe.each(['in-process', 'kafka'] as const)('a poisoned event on the %s bus', (kind) => {
  const infra = testInfra();
  const logger = testLogger();
  const service = randomName('svc');
  const schema = randomName('park_');
  const topic = topicFor(service);
  const totals = new Map<string, number>();
  const onCount: EventCounter = (name, _l, value) => totals.set(name, (totals.get(name) ?? 0) + value);
  const running: { stop(): Promise<void> }[] = [];
  // The handler refuses steps named "poison" (as Postgres refused a NUL) and fails with an outage while
  // `outage` is set; `fixed` is the deploy that makes poison acceptable.
  let outage = false;
  let fixed = false;
  let outageFailures = 0;
  let db: Knex;
  let bus: EventBus;
  let handlers: Record<string, EventHandler>;

  const publish = (key: string, step: string) =>
    db.transaction((trx) =>
      enqueueEvent(trx, schema, {
        service,
        eventName: EVENT,
        subject: key,
        payload: stepChangedPayload(key, step),
      }),
    );
  const applied = (seq: string) => count(db, schema, 'effects', (q) => q.where({ key: seq }));

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    await createEventSchema(db, schema);
    await parkedEventsMigration.up(db, schema);
    bus = testBus(kind, randomName('park'));
    await bus.ensureTopics([topic], { partitions: 1 });
    handlers = {
      [eventType(service, EVENT)]: eventHandler(VerificationStepChanged, async (msg, { trx, event }) => {
        if (outage) {
          outageFailures += 1;
          throw new GrpcCallError(Status.UNAVAILABLE, 'programs is down');
        }
        await trx
          .withSchema(schema)
          .table('effects')
          .insert({ key: msg.currentStep, seq: 1, ce_id: event.id });
        if (msg.currentStep === 'poison' && !fixed) {
          const err = new Error('invalid byte sequence for encoding "UTF8": 0x00') as Error & {
            code: string;
          };
          err.code = '22021';
          throw err;
        }
      }),
    };
    const relay = new OutboxRelay({ db, schema, bus, logger, pollIntervalMs: 50 });
    await relay.start();
    running.push(relay);
    const consumer: Subscription = await createEventConsumer({
      bus,
      db,
      schema,
      name: 'projection',
      topics: [topic],
      handlers,
      logger,
      onCount,
      maxAttempts: 3,
    });
    running.push(consumer);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(running.map((r) => r.stop()));
    await bus?.close();
    await dropSchema(db, schema);
    await db?.destroy();
  });

  it('parks it after 3 failures with its error, and applies the event behind it (same key, same partition)', async () => {
    await publish('v1', 'poison');
    await publish('v1', 'after');
    await waitFor('the event behind the poisoned one', async () => (await applied('after')) === 1);
    expect(await applied('poison')).toBe(0); // every failed attempt rolled back
    const [parked] = await listParkedEvents(db, schema, { limit: 10 });
    expect(parked).toMatchObject({
      consumer: 'projection',
      ceType: eventType(service, EVENT),
      topic,
      attempts: 3,
      replayedAt: null,
    });
    expect(parked!.error).toContain('22021');
    expect(totals.get('inbox_parked')).toBe(1);
  }, 60_000);

  it('retries an outage for as long as it lasts, never parking', async () => {
    outage = true;
    await publish('v2', 'during-outage');
    await waitFor('several failed attempts', async () => outageFailures >= 8);
    outage = false;
    await waitFor('the event after the outage', async () => (await applied('during-outage')) === 1);
    expect(await listParkedEvents(db, schema, { limit: 10 })).toHaveLength(1);
  }, 60_000);

  it('replays the parked event through the same consumer once the cause is fixed, exactly once', async () => {
    const registry = new ParkedEventsRegistry();
    registry.register('svc', { db, schema, consumers: new Map([['projection', { handlers }]]), logger });
    const service = registry.binding(logger).implementation;
    const call = <T>(method: string, request: unknown): Promise<T> =>
      new Promise((resolve, reject) =>
        (service[method] as (c: unknown, cb: (e: unknown, r: T) => void) => void)(
          { request, getPath: () => method, getDeadline: () => Infinity, metadata: { get: () => [] } },
          (err, res) => (err ? reject(err) : resolve(res)),
        ),
      );
    const [parked] = await listParkedEvents(db, schema, { limit: 10 });
    const again = await call<{ outcome: string; event: { attempts: number; error: string } }>(
      'replayParkedEvent',
      {
        module: 'svc',
        id: parked!.id,
      },
    );
    expect(again.outcome).toBe('failed');
    expect(again.event.attempts).toBe(4);

    fixed = true;
    const replayed = await call<{ outcome: string; event: { replayedAt?: Date } }>('replayParkedEvent', {
      module: 'svc',
      id: parked!.id,
    });
    expect(replayed.outcome).toBe('applied');
    expect(replayed.event.replayedAt).toBeInstanceOf(Date);
    expect(await applied('poison')).toBe(1);
    const twice = await call<{ outcome: string }>('replayParkedEvent', { module: 'svc', id: parked!.id });
    expect(twice.outcome).toBe('duplicate');
    expect(await applied('poison')).toBe(1);
    const listed = await call<{ events: unknown[] }>('listParkedEvents', {
      module: 'svc',
      parkedOnly: true,
      limit: 0,
    });
    expect(listed.events).toEqual([]);
    await expect(call('getParkedEvent', { module: 'svc', id: 999_999 })).rejects.toMatchObject({
      code: Status.NOT_FOUND,
    });
  }, 60_000);
});
