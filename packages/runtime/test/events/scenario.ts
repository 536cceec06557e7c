import type { Knex } from 'knex';
import { verificationEventsV1 } from '@eligo/proto';
import { eventType } from '../../src/events/cloudevents';
import { eventHandler, type EventHandler } from '../../src/events/event-consumer';
import { enqueueEvent } from '../../src/events/outbox';
import { outboxChannel } from '../../src/events/sql-names';
import { count, waitFor } from './helpers';

/**
 * The outbox -> bus -> inbox scenario shared by the Kafka and the in-process suites: a service enqueues a
 * numbered sequence of events per aggregate; a consumer applies each one into `effects`. At the end every
 * event must have been applied exactly once, and in order per aggregate, whatever was restarted meanwhile.
 * The Kafka suite's child process (fixtures/consumer-process.js) applies events the same way.
 */
export const EVENT_NAME = 'VerificationStepChanged';
const { VerificationStepChanged } = verificationEventsV1;
const emptyProjection = { subSegment: '', organizationId: 0, organizationName: '', verificationMethod: '' };

export function scenarioKeys(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${(i + 1).toString(16).padStart(24, '0')}`);
}

/** Per key in order, one transaction per event; keys interleave. */
export async function enqueueScenario(
  db: Knex,
  schema: string,
  service: string,
  keys: string[],
  perKey: number,
  pauseMs: number,
): Promise<void> {
  await Promise.all(
    keys.map(async (key) => {
      for (let seq = 1; seq <= perKey; seq += 1) {
        await db.transaction(async (trx) => {
          const payload = VerificationStepChanged.encode({
            ...emptyProjection,
            verificationId: key,
            programId: 'program',
            accountId: 'account',
            previousStep: String(seq - 1),
            currentStep: String(seq),
            errorIds: [],
            testMode: true,
            occurredAt: new Date(),
          }).finish();
          await enqueueEvent(trx, schema, { service, eventName: EVENT_NAME, subject: key, payload });
        });
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }),
  );
}

/** Whether the first attempt at applying this step fails after writing its effect (which must then roll back). */
export const failsFirstAttempt = (seq: number): boolean => seq % 10 === 3;

/** The consumer's effect: one row per application, and a failure on the first try of some events. */
export function effectHandlers(service: string, schema: string): Record<string, EventHandler> {
  const failedOnce = new Set<string>();
  return {
    [eventType(service, EVENT_NAME)]: eventHandler(VerificationStepChanged, async (msg, { trx, event }) => {
      const seq = Number(msg.currentStep);
      await trx.withSchema(schema).table('effects').insert({ key: msg.verificationId, seq, ce_id: event.id });
      if (failsFirstAttempt(seq) && !failedOnce.has(event.id)) {
        failedOnce.add(event.id);
        throw new Error(`injected failure applying ${msg.verificationId}#${seq}`);
      }
    }),
  };
}

/**
 * Simulates a relay that died after the broker acknowledged a batch but before marking it: the rows are
 * published again, and the consumers must recognise them as duplicates.
 */
export async function republishOldest(db: Knex, schema: string, rows: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw(
      `update ??.outbox set published_at = null where id in (select id from ??.outbox order by id limit ?)`,
      [schema, schema, rows],
    );
    await trx.raw('select pg_notify(?, ?)', [outboxChannel(schema), '']);
  });
  await waitFor(
    'the republished rows to be published again',
    async () => (await count(db, schema, 'outbox', (q) => q.whereNull('published_at'))) === 0,
  );
}

/** Every event applied once and in order per key: the rows of each key, in the order applied, are 1..perKey. */
export async function expectAppliedExactlyOnceInOrder(
  db: Knex,
  schema: string,
  keys: string[],
  perKey: number,
): Promise<void> {
  const rows: { key: string; seq: number }[] = await db
    .withSchema(schema)
    .table('effects')
    .select('key', 'seq')
    .orderBy('id');
  const byKey = new Map<string, number[]>();
  for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row.seq]);
  const expected = Array.from({ length: perKey }, (_, i) => i + 1);
  expect(rows).toHaveLength(keys.length * perKey);
  expect([...byKey.keys()].sort()).toEqual([...keys].sort());
  for (const key of keys) expect({ key, seqs: byKey.get(key) }).toEqual({ key, seqs: expected });
  expect(await count(db, schema, 'inbox')).toBe(keys.length * perKey);
}

export interface InterruptedScenario<P> {
  db: Knex;
  schema: string;
  service: string;
  keys: string[];
  perKey: number;
  /** Pause between one aggregate's events, so the stream lasts long enough to be interrupted. */
  pauseMs: number;
  startConsumer(): Promise<P>;
  startRelay(): Promise<P>;
  /** How a relay or consumer is interrupted mid-stream: a clean stop, or SIGKILL of its process. */
  interrupt(part: P): Promise<unknown>;
  /** The consumer's running count of inbox duplicates. */
  duplicates(): number;
  timeoutMs: number;
}

/**
 * The restart scenario both suites run: two relays compete on a backlog, one is interrupted mid-stream and
 * replaced, the consumer is interrupted mid-stream and replaced, and finally old rows are republished so that
 * duplicates certainly arrive. Asserts exactly-once effect in per-key order; returns the running consumer.
 */
export async function runInterruptedScenario<P>(o: InterruptedScenario<P>): Promise<P> {
  const { db, schema } = o;
  const total = o.keys.length * o.perKey;
  const published = (): Promise<number> => count(db, schema, 'outbox', (q) => q.whereNotNull('published_at'));
  const applied = (): Promise<number> => count(db, schema, 'effects');

  let consumer = await o.startConsumer();
  const producing = enqueueScenario(db, schema, o.service, o.keys, o.perKey, o.pauseMs);
  // Two relays start together on a backlog: they compete for the same rows, and per-key order must hold.
  await waitFor('a backlog', async () => (await count(db, schema, 'outbox')) >= 150);
  const [relayA] = await Promise.all([o.startRelay(), o.startRelay()]);

  await waitFor('a part of the outbox to be published', async () => (await published()) >= 100);
  await o.interrupt(relayA);
  expect(await published()).toBeLessThan(total); // the interruption happened mid-stream
  await o.startRelay();

  await waitFor('a part of the events to be applied', async () => (await applied()) >= 200);
  await o.interrupt(consumer);
  expect(await applied()).toBeLessThan(total);
  consumer = await o.startConsumer();

  await producing;
  await waitFor('every event to be applied', async () => (await applied()) >= total, {
    timeoutMs: o.timeoutMs,
  });

  // The relay-crash window (published, not yet marked) on purpose, so duplicates are certain to arrive.
  const duplicatesBefore = o.duplicates();
  await republishOldest(db, schema, 25);
  await waitFor(
    'the republished events to reach the consumer',
    async () => o.duplicates() >= duplicatesBefore + 25,
  );

  await expectAppliedExactlyOnceInOrder(db, schema, o.keys, o.perKey);
  return consumer;
}
