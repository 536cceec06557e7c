import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { createLogger, type Logger } from '../../src/logging/logger';
import { createInboxTable } from '../../src/events/inbox';
import { createOutboxTable } from '../../src/events/outbox';
import { verificationEventsV1 } from '@eligo/proto';
import type { EventBus } from '../../src/events/event-bus';
import { createInProcessEventBus } from '../../src/events/in-process-bus';
import { createKafkaEventBus } from '../../src/events/kafka-bus';

/** The servers come from the environment (the shared jest global setup, or /tmp/devinfra/env.sh by hand). */
export function testInfra(): { databaseUrl: string; kafkaBrokers: string[] } {
  const databaseUrl = process.env.ELIGO_TEST_DATABASE_URL;
  const brokers = process.env.ELIGO_TEST_KAFKA_BROKERS;
  if (!databaseUrl || !brokers) {
    throw new Error(
      'ELIGO_TEST_DATABASE_URL and ELIGO_TEST_KAFKA_BROKERS must name a Postgres and a Kafka to test against',
    );
  }
  return { databaseUrl, kafkaBrokers: brokers.split(',').map((b) => b.trim()) };
}

export const testLogLevel = (): string => process.env.ELIGO_TEST_LOG_LEVEL ?? 'error';

export function testLogger(): Logger {
  return createLogger({ level: testLogLevel() });
}

/** Lower-case letters and digits, so the name fits schema, service, topic and group naming rules alike. */
export function randomName(prefix: string): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

export function testDb(databaseUrl: string): Knex {
  return knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 10 } });
}

/**
 * A fresh schema with the outbox and inbox, plus `effects`: what a consumer did, one row per application.
 * It has no unique constraint on purpose, so an event applied twice shows up as two rows.
 */
export async function createEventSchema(db: Knex, schema: string): Promise<void> {
  await db.raw('create schema ??', [schema]);
  await createOutboxTable(db, schema);
  await createInboxTable(db, schema);
  await db.schema.withSchema(schema).createTable('effects', (t) => {
    t.bigIncrements('id');
    t.text('key').notNullable();
    t.integer('seq').notNullable();
    t.uuid('ce_id').notNullable();
  });
}

export async function dropSchema(db: Knex, schema: string): Promise<void> {
  await db.raw('drop schema if exists ?? cascade', [schema]);
}

export async function count(
  db: Knex,
  schema: string,
  table: string,
  where?: (q: Knex.QueryBuilder) => void,
): Promise<number> {
  const query = db.withSchema(schema).table(table).count<{ n: string }[]>({ n: '*' });
  where?.(query);
  const rows = await query;
  return Number(rows[0]?.n ?? 0);
}

export async function waitFor(
  what: string,
  condition: () => Promise<boolean>,
  { timeoutMs = 30_000, intervalMs = 25 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The bus of a consumer test, Kafka or in-process, retrying a failed handler after a few ms. */
export function testBus(kind: 'in-process' | 'kafka', clientId: string): EventBus {
  const logger = testLogger();
  const handlerRetry = { initialMs: 5, maxMs: 50 };
  return kind === 'kafka'
    ? createKafkaEventBus({ brokers: testInfra().kafkaBrokers, clientId, logger, handlerRetry })
    : createInProcessEventBus({ logger, handlerRetry });
}

/** An encoded VerificationStepChanged of `key` to `step`, the event the consumer tests apply. */
export function stepChangedPayload(key: string, step: string): Uint8Array {
  return verificationEventsV1.VerificationStepChanged.encode({
    verificationId: key,
    programId: 'p',
    accountId: 'a',
    previousStep: '',
    currentStep: step,
    errorIds: [],
    testMode: true,
    occurredAt: new Date(),
    subSegment: '',
    organizationId: 0,
    organizationName: '',
    verificationMethod: '',
  }).finish();
}
