import type { DecidedBy, ReviewCursor, ReviewStatus } from '../domain';
import type { Db } from './db';

/** A submitted upload in the staff queue. */
export interface ReviewRecord {
  id: string;
  uploadId: string;
  verificationId: string;
  programId: string;
  accountId: string;
  status: ReviewStatus;
  rejectionReasons: string[];
  testMode: boolean;
  decidedBy: DecidedBy | null;
  submittedAt: Date;
  decidedAt: Date | null;
  filesDeletedAt: Date | null;
}

interface Row {
  id: string;
  upload_id: string;
  verification_id: string;
  program_id: string;
  account_id: string;
  status: ReviewStatus;
  rejection_reasons: string[];
  test_mode: boolean;
  decided_by: DecidedBy | null;
  submitted_at: Date;
  decided_at: Date | null;
  files_deleted_at: Date | null;
}

const toRecord = (r: Row): ReviewRecord => ({
  id: r.id,
  uploadId: r.upload_id,
  verificationId: r.verification_id,
  programId: r.program_id,
  accountId: r.account_id,
  status: r.status,
  rejectionReasons: r.rejection_reasons,
  testMode: r.test_mode,
  decidedBy: r.decided_by,
  submittedAt: r.submitted_at,
  decidedAt: r.decided_at,
  filesDeletedAt: r.files_deleted_at,
});

export async function insertReview(db: Db, r: Omit<ReviewRecord, 'filesDeletedAt'>): Promise<void> {
  await db('reviews').insert({
    id: r.id,
    upload_id: r.uploadId,
    verification_id: r.verificationId,
    program_id: r.programId,
    account_id: r.accountId,
    status: r.status,
    rejection_reasons: r.rejectionReasons,
    test_mode: r.testMode,
    decided_by: r.decidedBy,
    submitted_at: r.submittedAt,
    decided_at: r.decidedAt,
  });
}

/** With `lock`, the row stays locked until the caller's transaction ends (one decision at a time). */
export async function findReview(db: Db, id: string, lock = false): Promise<ReviewRecord | undefined> {
  const query = db('reviews').where({ id }).first<Row | undefined>();
  const row = await (lock ? query.forUpdate() : query);
  return row ? toRecord(row) : undefined;
}

export async function findReviewOfUpload(db: Db, uploadId: string): Promise<ReviewRecord | undefined> {
  const row = await db('reviews').where({ upload_id: uploadId }).first<Row | undefined>();
  return row ? toRecord(row) : undefined;
}

/** One page of the queue in submission order, after the cursor (keyset: stable while reviews arrive). */
export async function listReviews(
  db: Db,
  query: { status: ReviewStatus | undefined; after: ReviewCursor | undefined; limit: number },
): Promise<ReviewRecord[]> {
  const q = db('reviews');
  if (query.status) q.where({ status: query.status });
  if (query.after) q.whereRaw('(submitted_at, id) > (?, ?)', [query.after.submittedAt, query.after.id]);
  const rows = await q
    .orderBy([{ column: 'submitted_at' }, { column: 'id' }])
    .limit(query.limit)
    .select<Row[]>('*');
  return rows.map(toRecord);
}

export async function recordDecision(
  db: Db,
  id: string,
  d: { status: ReviewStatus; rejectionReasons: string[]; decidedBy: DecidedBy; decidedAt: Date },
): Promise<ReviewRecord> {
  const rows = await db('reviews')
    .where({ id })
    .update({
      status: d.status,
      rejection_reasons: d.rejectionReasons,
      decided_by: d.decidedBy,
      decided_at: d.decidedAt,
    })
    .returning<Row[]>('*');
  return toRecord(rows[0]!);
}

/** Decided reviews (decided before `before`) whose files are still stored, oldest first, locked. */
export async function lockReviewsToPurge(
  db: Db,
  before: Date,
  limit: number,
): Promise<{ id: string; uploadId: string }[]> {
  const rows: { id: string; upload_id: string }[] = await db('reviews')
    // Spelled as the partial index's predicate, so that the planner uses it.
    .whereRaw(`status <> 'pending'`)
    .whereNull('files_deleted_at')
    .where('decided_at', '<', before)
    .orderBy('decided_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('id', 'upload_id');
  return rows.map((r) => ({ id: r.id, uploadId: r.upload_id }));
}

export async function markReviewFilesDeleted(db: Db, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db('reviews').whereIn('id', ids).update({ files_deleted_at: now });
}
