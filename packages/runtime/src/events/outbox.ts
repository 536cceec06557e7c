import type { Knex } from 'knex';
import { NotWritten, oneStatementOf } from '../db/one-statement';
import type { Queryable, Transaction } from '../db/transaction';
import { buildCloudEventHeaders, CE_HEADERS, topicFor, type NewCloudEvent } from './cloudevents';
import { eventTraceHeaders } from '../telemetry/trace-context';
import { assertSchemaName, outboxChannel } from './sql-names';

/**
 * Transactional outbox (docs/architecture.md, "Events"): a state change and the event announcing it commit in
 * one transaction, so an event is never lost after a commit nor published for a change that rolled back. The
 * OutboxRelay moves committed rows to the bus.
 */

/** For a service's knex migration: `await createOutboxTable(knex, 'verification')`. */
export async function createOutboxTable(knex: Knex, schema: string): Promise<void> {
  await knex.schema.withSchema(assertSchemaName(schema)).createTable('outbox', (t) => {
    t.bigIncrements('id'); // bigserial primary key: the publish order
    t.text('topic').notNullable();
    t.text('key').notNullable();
    t.text('event_type').notNullable();
    t.jsonb('headers').notNullable();
    t.binary('payload').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('published_at', { useTz: true }).nullable();
    // The relay only ever looks for unpublished rows in id order; published ones stay out of this index.
    t.index(['id'], 'outbox_unpublished_idx', { predicate: knex.whereNull('published_at') });
  });
}

export async function dropOutboxTable(knex: Knex, schema: string): Promise<void> {
  await knex.schema.withSchema(assertSchemaName(schema)).dropTableIfExists('outbox');
}

export interface OutboxEvent extends NewCloudEvent {
  /** The encoded protobuf message, e.g. `VerificationStepChanged.encode(msg).finish()`. */
  payload: Uint8Array;
}

/** Transactions whose NOTIFY is already sent: one per transaction wakes the relay (Postgres folds the rest). */
const notified = new WeakSet<Queryable>();

/**
 * Records an event in the caller's transaction and returns its ce_id (enqueueEvents with one event).
 */
export async function enqueueEvent(trx: Transaction, schema: string, event: OutboxEvent): Promise<string> {
  return (await enqueueEvents(trx, schema, [event]))[0]!;
}

/**
 * The outbox insert of `events`, in this order (one statement's rows take their ids in VALUES order); with
 * `onlyIf`, only when that WITH part of the same statement returned a row.
 */
function outboxInsert(
  schema: string,
  events: readonly OutboxEvent[],
  onlyIf?: string,
): { sql: string; values: Knex.Value[]; ids: string[] } {
  const ids: string[] = [];
  const values: Knex.Value[] = [];
  for (const event of events) {
    // The span that records the event is where its consumers' spans continue (CloudEvents ce_traceparent).
    const headers = { ...buildCloudEventHeaders(event), ...eventTraceHeaders() };
    ids.push(headers[CE_HEADERS.id]!);
    values.push(
      topicFor(event.service),
      event.subject,
      headers[CE_HEADERS.type]!,
      JSON.stringify(headers),
      Buffer.from(event.payload),
    );
  }
  const into = `insert into "${assertSchemaName(schema)}"."outbox" (topic, key, event_type, headers, payload)`;
  if (!onlyIf)
    return { sql: `${into} values ${events.map(() => '(?, ?, ?, ?::jsonb, ?)').join(', ')}`, values, ids };
  // A VALUES list read by a select types its columns by itself (text), hence the casts; no `*`, which
  // would keep the statement from being prepared (db/prepared-statements.ts).
  const rows = events.map(() => '(?, ?, ?, ?::jsonb, ?::bytea)').join(', ');
  const sql =
    `${into} select topic, key, event_type, headers, payload` +
    ` from (values ${rows}) as e (topic, key, event_type, headers, payload)` +
    ` where exists (select 1 from ${quotedPart(onlyIf)})`;
  return { sql, values, ids };
}

/**
 * Records events in the caller's transaction, in this order, with one statement, and returns their ce_ids.
 * The NOTIFY is delivered by Postgres only when that transaction commits (and not at all if it rolls back),
 * which wakes the relay promptly. The first statement of a transaction sends it with its insert, later ones
 * need none: each statement is a round trip, so a change that announces several events records them at once.
 */
export async function enqueueEvents(
  trx: Transaction,
  schema: string,
  events: OutboxEvent[],
): Promise<string[]> {
  if (events.length === 0) return [];
  const { sql, values, ids } = outboxInsert(schema, events);
  if (notified.has(trx)) await trx.raw(sql, values);
  else {
    // A data-modifying WITH runs whether or not the select reads it.
    await trx.raw(`with inserted as (${sql}) select pg_notify(?, '')`, [...values, outboxChannel(schema)]);
    notified.add(trx);
  }
  return ids;
}

/**
 * The caller's data-modifying queries (built, not yet run) and the outbox rows of `events`, as one statement
 * (each query a WITH part: Postgres runs every one, read or not, and checks foreign keys at the end of the
 * statement, so one part may refer to a row another inserts). A change and its events are one round trip
 * instead of one each; on the pool, outside a transaction, the statement is a transaction by itself and
 * needs no BEGIN and COMMIT either. On a handle of asOneStatement the statement is sent after the work.
 * Returns the events' ce_ids.
 *
 * `onlyIf` names the part the others depend on (it must have a RETURNING; the caller's other parts select
 * from it): the events are recorded only if it returned a row, and when it returned none the call throws
 * NotWritten, nothing of the statement stored (an update whose row changed since it was read, say).
 */
export async function writeWithEvents(
  db: Queryable,
  schema: string,
  writes: Readonly<Record<string, Knex.QueryBuilder | Knex.Raw>>,
  events: readonly OutboxEvent[],
  { onlyIf }: { onlyIf?: string } = {},
): Promise<string[]> {
  const deferred = oneStatementOf(db);
  const on: Queryable = deferred?.pool ?? db;
  let statement = on.queryBuilder();
  for (const [name, write] of Object.entries(writes)) statement = statement.with(name, write);
  const trx = !deferred && db.isTransaction ? db : undefined;
  let ids: string[] = [];
  if (events.length > 0) {
    const insert = outboxInsert(schema, events, onlyIf);
    ids = insert.ids;
    statement = statement.with('outbox_rows', on.raw(insert.sql, insert.values));
  }
  // One NOTIFY per transaction wakes the relay (Postgres folds the rest); none for a statement that stored nothing.
  const notify = events.length > 0 && !(trx && notified.has(trx));
  statement = statement.select(notify ? on.raw(`pg_notify(?, '')`, [outboxChannel(schema)]) : on.raw('1'));
  if (onlyIf) statement = statement.from(on.raw(quotedPart(onlyIf)));
  const run = async () => {
    const rows = (await statement) as unknown[];
    if (onlyIf && rows.length === 0) throw new NotWritten(`The ${onlyIf} part of the statement wrote no row`);
    if (notify && trx) notified.add(trx);
  };
  if (deferred) deferred.defer(run);
  else await run();
  return ids;
}

/** A WITH part's name in SQL: the callers' own identifiers, never input. */
function quotedPart(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a WITH part name: ${name}`);
  return `"${name}"`;
}

/** The encode half of a ts-proto message (e.g. `verificationEventsV1.VerificationCreated`). */
export interface EventEncoder<T> {
  encode(message: T): { finish(): Uint8Array };
}

/**
 * A service's typed event builder: `const event = outboxEvent<keyof typeof xEventsV1>('x')`, then
 * `event('SomethingHappened', SomethingHappened, aggregateId, message)` is the encoded event, keyed by the
 * aggregate id, for enqueueEvents.
 */
export function outboxEvent<EventName extends string>(service: string) {
  return <T>(eventName: EventName, encoder: EventEncoder<T>, subject: string, message: T): OutboxEvent => ({
    service,
    eventName,
    subject,
    payload: encoder.encode(message).finish(),
  });
}

/**
 * A service's typed outbox writer: `const enqueue = outboxWriter<keyof typeof xEventsV1>('x')`, then
 * `enqueue(trx, schema, 'SomethingHappened', SomethingHappened, aggregateId, message)` records the event
 * (outboxEvent) in the caller's transaction (enqueueEvent).
 */
export function outboxWriter<EventName extends string>(service: string) {
  const event = outboxEvent<EventName>(service);
  return async <T>(
    trx: Transaction,
    schema: string,
    eventName: EventName,
    encoder: EventEncoder<T>,
    subject: string,
    message: T,
  ): Promise<string> => enqueueEvent(trx, schema, event(eventName, encoder, subject, message));
}

/** Published rows are history only; a service may delete them after a retention period. */
export async function deletePublishedOutboxRows(
  knex: Knex,
  schema: string,
  publishedBefore: Date,
): Promise<number> {
  return knex
    .withSchema(assertSchemaName(schema))
    .table('outbox')
    .whereNotNull('published_at')
    .where('published_at', '<', publishedBefore)
    .delete();
}
