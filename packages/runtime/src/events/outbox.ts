import type { Knex } from 'knex';
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
const notified = new WeakSet<Knex.Transaction>();

/**
 * Records an event in the caller's transaction and returns its ce_id. The NOTIFY is delivered by Postgres
 * only when that transaction commits (and not at all if it rolls back), which wakes the relay promptly. The
 * first event of a transaction sends it in the same statement as its insert, later ones need none: a flow
 * writes several events per transaction, and each statement is a round trip.
 */
export async function enqueueEvent(
  trx: Knex.Transaction,
  schema: string,
  event: OutboxEvent,
): Promise<string> {
  // The span that records the event is where its consumers' spans continue (CloudEvents ce_traceparent).
  const headers = { ...buildCloudEventHeaders(event), ...eventTraceHeaders() };
  const insert =
    `insert into "${assertSchemaName(schema)}"."outbox" (topic, key, event_type, headers, payload) ` +
    'values (?, ?, ?, ?::jsonb, ?)';
  const values = [
    topicFor(event.service),
    event.subject,
    headers[CE_HEADERS.type]!,
    JSON.stringify(headers),
    Buffer.from(event.payload),
  ];
  if (notified.has(trx)) await trx.raw(insert, values);
  else {
    // A data-modifying WITH runs whether or not the select reads it.
    await trx.raw(`with inserted as (${insert}) select pg_notify(?, '')`, [...values, outboxChannel(schema)]);
    notified.add(trx);
  }
  return headers[CE_HEADERS.id]!;
}

/** The encode half of a ts-proto message (e.g. `verificationEventsV1.VerificationCreated`). */
export interface EventEncoder<T> {
  encode(message: T): { finish(): Uint8Array };
}

/**
 * A service's typed outbox writer: `const enqueue = outboxWriter<keyof typeof xEventsV1>('x')`, then
 * `enqueue(trx, schema, 'SomethingHappened', SomethingHappened, aggregateId, message)` encodes the message
 * and records it in the caller's transaction (enqueueEvent), keyed by the aggregate id.
 */
export function outboxWriter<EventName extends string>(service: string) {
  return async <T>(
    trx: Knex.Transaction,
    schema: string,
    eventName: EventName,
    encoder: EventEncoder<T>,
    subject: string,
    message: T,
  ): Promise<string> =>
    enqueueEvent(trx, schema, {
      service,
      eventName,
      subject,
      payload: encoder.encode(message).finish(),
    });
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
