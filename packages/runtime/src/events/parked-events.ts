import type { Knex } from 'knex';
import type { SchemaMigration } from '../db/migrate';
import { assertSchemaName } from './sql-names';

/**
 * Parked events: a consumer that keeps failing on one event (for a reason other than an outage) moves it
 * here with the error and goes on with the next, so one bad event cannot stall a partition for everyone.
 * The row keeps the message as delivered, so that a replay runs it through the same handler later.
 */
export const parkedEventsMigration: SchemaMigration = {
  name: '0001_eligo_parked_events',
  async up(knex, schema) {
    await knex.schema.withSchema(assertSchemaName(schema)).createTable('parked_events', (t) => {
      t.bigIncrements('id').primary();
      t.text('consumer').notNullable();
      t.uuid('ce_id').notNullable();
      t.text('ce_type').notNullable();
      t.text('topic').notNullable();
      t.integer('partition').notNullable();
      t.text('offset').notNullable();
      t.text('key').notNullable();
      t.jsonb('headers').notNullable();
      t.binary('value').notNullable();
      t.text('error').notNullable();
      t.integer('attempts').notNullable();
      t.timestamp('parked_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('replayed_at', { useTz: true });
      // Parking is idempotent: a redelivery of the same event after a crash finds its row.
      t.unique(['consumer', 'ce_id']);
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(assertSchemaName(schema)).dropTableIfExists('parked_events');
  },
};

export interface ParkedEventRow {
  id: number;
  consumer: string;
  ceId: string;
  ceType: string;
  topic: string;
  partition: number;
  offset: string;
  key: string;
  headers: Record<string, string>;
  value: Buffer;
  error: string;
  attempts: number;
  parkedAt: Date;
  replayedAt: Date | null;
}

const columns = {
  id: 'id',
  consumer: 'consumer',
  ceId: 'ce_id',
  ceType: 'ce_type',
  topic: 'topic',
  partition: 'partition',
  offset: 'offset',
  key: 'key',
  headers: 'headers',
  value: 'value',
  error: 'error',
  attempts: 'attempts',
  parkedAt: 'parked_at',
  replayedAt: 'replayed_at',
} as const;

/** Error texts are kept short: they are for operators, and a driver may quote long input back. */
export const MAX_ERROR_LENGTH = 2000;

export type NewParkedEvent = Omit<ParkedEventRow, 'id' | 'parkedAt' | 'replayedAt'>;

/** Parks an event (or refreshes the error of one parked already). */
export async function parkEvent(db: Knex, schema: string, event: NewParkedEvent): Promise<void> {
  await db
    .withSchema(assertSchemaName(schema))
    .table('parked_events')
    .insert({
      consumer: event.consumer,
      ce_id: event.ceId,
      ce_type: event.ceType,
      topic: event.topic,
      partition: event.partition,
      offset: event.offset,
      key: event.key,
      headers: JSON.stringify(event.headers),
      value: event.value,
      error: event.error.slice(0, MAX_ERROR_LENGTH),
      attempts: event.attempts,
    })
    .onConflict(['consumer', 'ce_id'])
    .merge({ error: event.error.slice(0, MAX_ERROR_LENGTH), attempts: event.attempts, replayed_at: null });
}

export interface ParkedEventQuery {
  consumer?: string;
  parkedOnly?: boolean;
  limit: number;
  beforeId?: number;
}

export async function listParkedEvents(
  db: Knex,
  schema: string,
  query: ParkedEventQuery,
): Promise<ParkedEventRow[]> {
  const q = db.withSchema(assertSchemaName(schema)).table('parked_events').select(columns);
  if (query.consumer) q.where('consumer', query.consumer);
  if (query.parkedOnly) q.whereNull('replayed_at');
  if (query.beforeId) q.where('id', '<', query.beforeId);
  return (await q.orderBy('id', 'desc').limit(query.limit)).map(fromDb);
}

export async function findParkedEvent(
  db: Knex,
  schema: string,
  id: number,
): Promise<ParkedEventRow | undefined> {
  const row = await db
    .withSchema(assertSchemaName(schema))
    .table('parked_events')
    .select(columns)
    .where({ id })
    .first();
  return row ? fromDb(row) : undefined;
}

/** After a replay: replayed (with the time), or still parked with the new error and one attempt more. */
export async function recordReplay(
  db: Knex,
  schema: string,
  id: number,
  outcome: { ok: true } | { ok: false; error: string },
): Promise<void> {
  const table = db.withSchema(assertSchemaName(schema)).table('parked_events').where({ id });
  if (outcome.ok) await table.update({ replayed_at: db.fn.now() });
  else
    await table.update({ error: outcome.error.slice(0, MAX_ERROR_LENGTH), attempts: db.raw('attempts + 1') });
}

/** How many events each consumer has parked and not replayed (the parked-events gauge). */
export async function countParkedEvents(db: Knex, schema: string): Promise<Map<string, number>> {
  const rows = (await db
    .withSchema(assertSchemaName(schema))
    .table('parked_events')
    .whereNull('replayed_at')
    .select('consumer')
    .count({ n: '*' })
    .groupBy('consumer')) as { consumer: string; n: string | number }[];
  return new Map(rows.map((r) => [r.consumer, Number(r.n)]));
}

function fromDb(row: Record<string, unknown>): ParkedEventRow {
  return { ...(row as unknown as ParkedEventRow), id: Number(row.id) };
}
