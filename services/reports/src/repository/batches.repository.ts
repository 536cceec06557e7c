import type { Knex, Transaction } from '@eligo/runtime';
import type { ReverifyOutcome } from '../domain/reverify-answer';

type Db = Knex | Transaction;

export type BatchStatus = 'PENDING' | 'IN_PROGRESS' | 'COMPLETE';
/** The instant match's outcome, or what became of an item without one. */
export type ItemOutcome = ReverifyOutcome | 'NOT_FOUND' | 'FAILED';

export interface BatchRecord {
  id: string;
  accountId: string;
  programId: string;
  status: BatchStatus;
  totalRecords: number;
  recordsProcessed: number;
  createdAt: Date;
}

export interface ClaimedItem {
  batchId: string;
  position: number;
  verificationId: string;
  accountId: string;
  programId: string;
  /** Claims of the item so far, this one included. */
  attempts: number;
}

export interface ItemResult {
  outcome: ItemOutcome;
  errorIds: string[];
  currentStep: string | null;
  organizationId: number | null;
}

const toBatch = (r: Record<string, unknown>): BatchRecord => ({
  id: r.id as string,
  accountId: r.account_id as string,
  programId: r.program_id as string,
  status: r.status as BatchStatus,
  totalRecords: Number(r.total_records),
  recordsProcessed: Number(r.records_processed),
  createdAt: r.created_at as Date,
});

/** The batch and its items in one transaction: a batch is never seen without all of its work. */
export async function insertBatch(
  trx: Transaction,
  schema: string,
  b: { id: string; accountId: string; programId: string; verificationIds: readonly string[] },
): Promise<BatchRecord> {
  const [row] = await trx
    .withSchema(schema)
    .table('reverify_batches')
    .insert({
      id: b.id,
      account_id: b.accountId,
      program_id: b.programId,
      status: 'PENDING',
      total_records: b.verificationIds.length,
    })
    .returning('*');
  // One statement for the whole list (unnest), however long it is.
  await trx.raw(
    `insert into ??.reverify_items (batch_id, position, verification_id)
     select ?, t.ord::int, t.id from unnest(?::text[]) with ordinality as t(id, ord)`,
    [schema, b.id, [...b.verificationIds]],
  );
  return toBatch(row as Record<string, unknown>);
}

export async function findBatch(
  db: Db,
  schema: string,
  accountId: string,
  id: string,
): Promise<BatchRecord | undefined> {
  const row = await db
    .withSchema(schema)
    .table('reverify_batches')
    .where({ id, account_id: accountId })
    .first();
  return row ? toBatch(row as Record<string, unknown>) : undefined;
}

/**
 * Claims up to `limit` pending items nobody holds (or whose holder's lease lapsed: a process that died
 * mid-batch), oldest batch first. SKIP LOCKED lets replicas share a batch.
 */
export async function claimItems(
  db: Knex,
  schema: string,
  lease: string,
  leaseMs: number,
  limit: number,
): Promise<ClaimedItem[]> {
  const { rows } = await db.raw<{ rows: Record<string, unknown>[] }>(
    `with picked as (
       select batch_id, position from ??.reverify_items
        where status = 'PENDING' and (locked_until is null or locked_until < now())
        order by batch_id, position limit ? for update skip locked)
     update ??.reverify_items i set lease = ?, locked_until = now() + (? * interval '1 millisecond'),
         attempts = i.attempts + 1
       from picked, ??.reverify_batches b
      where i.batch_id = picked.batch_id and i.position = picked.position and b.id = i.batch_id
      returning i.batch_id, i.position, i.verification_id, i.attempts, b.account_id, b.program_id`,
    [schema, limit, schema, lease, leaseMs, schema],
  );
  return rows.map((r) => ({
    batchId: r.batch_id as string,
    position: Number(r.position),
    verificationId: r.verification_id as string,
    accountId: r.account_id as string,
    programId: r.program_id as string,
    attempts: Number(r.attempts),
  }));
}

/**
 * Records an item's result and counts it in its batch, in one transaction, only while the claim holds: an
 * item is counted once even when a lapsed claim's holder finishes late.
 */
export async function completeItem(
  db: Knex,
  schema: string,
  item: ClaimedItem,
  lease: string,
  result: ItemResult,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const updated = await trx
      .withSchema(schema)
      .table('reverify_items')
      .where({ batch_id: item.batchId, position: item.position, lease, status: 'PENDING' })
      .update({
        status: 'DONE',
        outcome: result.outcome,
        error_ids: result.errorIds,
        current_step: result.currentStep,
        organization_id: result.organizationId,
        processed_at: trx.fn.now(),
        lease: null,
        locked_until: null,
      });
    if (updated !== 1) return false;
    await trx.raw(
      `update ??.reverify_batches set records_processed = records_processed + 1,
          status = case when records_processed + 1 >= total_records then 'COMPLETE' else 'IN_PROGRESS' end,
          completed_at = case when records_processed + 1 >= total_records then now() else null end
        where id = ?`,
      [schema, item.batchId],
    );
    return true;
  });
}

/** Lets go of a claim whose call failed: the item is taken again once `retryInMs` has passed. */
export async function releaseItem(
  db: Knex,
  schema: string,
  item: ClaimedItem,
  lease: string,
  retryInMs: number,
): Promise<void> {
  await db
    .withSchema(schema)
    .table('reverify_items')
    .where({ batch_id: item.batchId, position: item.position, lease })
    .update({ lease: null, locked_until: db.raw(`now() + (? * interval '1 millisecond')`, [retryInMs]) });
}
