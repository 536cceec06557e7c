import type { Knex, Transaction } from '@eligo/runtime';

type Db = Knex | Transaction;

export type ReportStatus = 'PENDING' | 'COMPLETE' | 'ERROR' | 'DELETED';
export type ReportKind = 'VERIFICATION' | 'REVERIFY';

export interface ReportRecord {
  id: string;
  accountId: string;
  tokenId: string;
  kind: ReportKind;
  params: Record<string, unknown>;
  piiIncluded: boolean;
  piiReason: string | null;
  status: ReportStatus;
  objectKey: string | null;
  rowCount: number;
  errorMessage: string | null;
  attempts: number;
  lease: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

interface Row {
  id: string;
  account_id: string;
  token_id: string;
  kind: ReportKind;
  params: Record<string, unknown>;
  pii_included: boolean;
  pii_reason: string | null;
  status: ReportStatus;
  object_key: string | null;
  row_count: string | number;
  error_message: string | null;
  attempts: number;
  lease: string | null;
  created_at: Date;
  completed_at: Date | null;
}

const toRecord = (r: Row): ReportRecord => ({
  id: r.id,
  accountId: r.account_id,
  tokenId: r.token_id,
  kind: r.kind,
  params: r.params,
  piiIncluded: r.pii_included,
  piiReason: r.pii_reason,
  status: r.status,
  objectKey: r.object_key,
  rowCount: Number(r.row_count),
  errorMessage: r.error_message,
  attempts: r.attempts,
  lease: r.lease,
  createdAt: r.created_at,
  completedAt: r.completed_at,
});

export async function insertReport(
  db: Db,
  schema: string,
  r: Pick<ReportRecord, 'id' | 'accountId' | 'tokenId' | 'kind' | 'params' | 'piiIncluded' | 'piiReason'>,
): Promise<ReportRecord> {
  const [row] = await db
    .withSchema(schema)
    .table('reports')
    .insert({
      id: r.id,
      account_id: r.accountId,
      token_id: r.tokenId,
      kind: r.kind,
      params: JSON.stringify(r.params),
      pii_included: r.piiIncluded,
      pii_reason: r.piiReason,
      status: 'PENDING',
    })
    .returning('*');
  return toRecord(row as Row);
}

/** The account's report; another account's is undefined, exactly as an unknown one. */
export async function findReport(
  db: Db,
  schema: string,
  accountId: string,
  id: string,
): Promise<ReportRecord | undefined> {
  const row = await db.withSchema(schema).table('reports').where({ id, account_id: accountId }).first();
  return row ? toRecord(row as Row) : undefined;
}

/**
 * Claims the oldest pending report nobody holds (or whose holder's lease lapsed), for leaseMs. SKIP LOCKED
 * lets replicas claim different reports at once.
 */
export async function claimPendingReport(
  db: Knex,
  schema: string,
  lease: string,
  leaseMs: number,
): Promise<ReportRecord | undefined> {
  const { rows } = await db.raw<{ rows: Row[] }>(
    `update ??.reports set lease = ?, locked_until = now() + (? * interval '1 millisecond'),
        attempts = attempts + 1
      where id = (select id from ??.reports
                   where status = 'PENDING' and (locked_until is null or locked_until < now())
                   order by created_at limit 1 for update skip locked)
      returning *`,
    [schema, lease, leaseMs, schema],
  );
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** Extends a claim; false when it was lost (lapsed and taken, or the report deleted meanwhile). */
export async function extendLease(
  db: Knex,
  schema: string,
  id: string,
  lease: string,
  leaseMs: number,
): Promise<boolean> {
  const n = await db
    .withSchema(schema)
    .table('reports')
    .where({ id, lease, status: 'PENDING' })
    .update({ locked_until: db.raw(`now() + (? * interval '1 millisecond')`, [leaseMs]) });
  return n === 1;
}

/** Ends a claimed report; false when the claim was lost, in which case nothing changed. */
export async function finishReport(
  db: Db,
  schema: string,
  id: string,
  lease: string,
  outcome:
    | { status: 'COMPLETE'; objectKey: string; rowCount: number }
    | { status: 'ERROR'; errorMessage: string }
    | { status: 'PENDING' },
): Promise<ReportRecord | undefined> {
  const changes =
    outcome.status === 'COMPLETE'
      ? {
          status: 'COMPLETE',
          object_key: outcome.objectKey,
          row_count: outcome.rowCount,
          completed_at: db.fn.now(),
        }
      : outcome.status === 'ERROR'
        ? { status: 'ERROR', error_message: outcome.errorMessage, completed_at: db.fn.now() }
        : {};
  const [row] = await db
    .withSchema(schema)
    .table('reports')
    .where({ id, lease, status: 'PENDING' })
    .update({ ...changes, lease: null, locked_until: null })
    .returning('*');
  return row ? toRecord(row as Row) : undefined;
}

/** Marks a report DELETED and answers it as it was before (its object key is the caller's to delete). */
export async function markDeleted(
  db: Db,
  schema: string,
  where: { id: string; accountId?: string },
): Promise<{ before: ReportRecord; after: ReportRecord } | undefined> {
  const { rows } = await db.raw<{ rows: (Row & { old_status: ReportStatus; old_key: string | null })[] }>(
    `update ??.reports r set status = 'DELETED', deleted_at = now(), object_key = null, lease = null,
        locked_until = null
       from (select id, status as old_status, object_key as old_key from ??.reports
              where id = ? and (?::text is null or account_id = ?) for update) old
      where r.id = old.id and r.status <> 'DELETED'
      returning r.*, old.old_status, old.old_key`,
    [schema, schema, where.id, where.accountId ?? null, where.accountId ?? null],
  );
  const row = rows[0];
  if (!row) return undefined;
  const after = toRecord(row);
  return { before: { ...after, status: row.old_status, objectKey: row.old_key }, after };
}

/** Finished reports older than the retention, oldest first, with their object keys (null for ERROR). */
export async function expiredReports(
  db: Db,
  schema: string,
  completedBefore: Date,
  limit: number,
): Promise<{ id: string; objectKey: string | null }[]> {
  const rows: { id: string; object_key: string | null }[] = await db
    .withSchema(schema)
    .table('reports')
    .whereIn('status', ['COMPLETE', 'ERROR'])
    .where('completed_at', '<', completedBefore)
    .orderBy('completed_at')
    .limit(limit)
    .select('id', 'object_key');
  return rows.map((r) => ({ id: r.id, objectKey: r.object_key }));
}

/** The object keys these reports refer to (a COMPLETE report's file); by primary key, so batches are cheap. */
export async function objectKeysOf(db: Db, schema: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows: { object_key: string }[] = await db
    .withSchema(schema)
    .table('reports')
    .whereIn('id', ids)
    .whereNotNull('object_key')
    .select('object_key');
  return rows.map((r) => r.object_key);
}
