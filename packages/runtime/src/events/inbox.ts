import type { Knex } from 'knex';
import { inTransaction, type Transaction } from '../db/transaction';
import { assertSchemaName } from './sql-names';

/**
 * Inbox (docs/architecture.md, "Events"): delivery is at-least-once, so a consumer records each ce_id in the
 * same transaction as its effect. A second delivery finds the row and changes nothing; a delivery whose
 * transaction rolled back left no row and runs again. Kafka transactions are never needed for this.
 */

/** For a service's knex migration: `await createInboxTable(knex, 'reports')`. */
export async function createInboxTable(knex: Knex, schema: string): Promise<void> {
  await knex.schema.withSchema(assertSchemaName(schema)).createTable('inbox', (t) => {
    t.text('consumer').notNullable(); // one service may run several consumers, each sees every event once
    t.uuid('ce_id').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['consumer', 'ce_id']);
  });
}

export async function dropInboxTable(knex: Knex, schema: string): Promise<void> {
  await knex.schema.withSchema(assertSchemaName(schema)).dropTableIfExists('inbox');
}

export type InboxOutcome = 'applied' | 'duplicate';

/**
 * Runs `effect` at most once per (consumer, ceId), in the transaction that records the ceId (a UUID, as
 * parseCloudEventHeaders guarantees). A concurrent
 * delivery of the same event (e.g. during a rebalance) waits on the primary key and then sees a duplicate.
 * If the effect throws, nothing is recorded and the error propagates, so the bus delivers the event again.
 */
export async function handleOnce(
  knex: Knex,
  schema: string,
  consumer: string,
  ceId: string,
  effect: (trx: Transaction) => Promise<void>,
): Promise<InboxOutcome> {
  let outcome: InboxOutcome = 'duplicate';
  await handleNew(knex, schema, consumer, [ceId], async (fresh, trx) => {
    if (fresh.size === 0) return;
    await effect(trx);
    outcome = 'applied';
  });
  return outcome;
}

/**
 * handleOnce for several events at once: one transaction records every ceId with one statement, and `effect`
 * gets those not recorded before (`fresh`) to apply in the same transaction. All or nothing: if the effect
 * throws, no ceId is recorded.
 */
export async function handleNew(
  knex: Knex,
  schema: string,
  consumer: string,
  ceIds: string[],
  effect: (fresh: Set<string>, trx: Transaction) => Promise<void>,
): Promise<void> {
  assertSchemaName(schema);
  // Not knex's transaction: a consumer's batch is one transaction, and knex's costs more CPU than its statements.
  await inTransaction(knex, async (trx) => {
    const inserted: { ce_id: string }[] = await trx
      .withSchema(schema)
      .table('inbox')
      .insert(ceIds.map((ceId) => ({ consumer, ce_id: ceId })))
      .onConflict(['consumer', 'ce_id'])
      .ignore()
      .returning('ce_id');
    await effect(new Set(inserted.map((row) => row.ce_id)), trx);
  });
}

/**
 * Duplicates arrive within the redelivery window (a relay republishing a batch, a consumer rewinding to its
 * last committed offset), so rows older than a generous retention can go.
 */
export async function deleteInboxRows(knex: Knex, schema: string, receivedBefore: Date): Promise<number> {
  return knex
    .withSchema(assertSchemaName(schema))
    .table('inbox')
    .where('received_at', '<', receivedBefore)
    .delete();
}
