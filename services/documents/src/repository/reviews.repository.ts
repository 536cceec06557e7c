import type { DecidedBy, ReviewCursor, ReviewOrder, ReviewStatus } from '../domain';
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
  /** Null for reviews queued before segments were recorded. */
  segment: string | null;
  /** The last claim (holder and lease end); it holds only while claimExpiresAt is in the future. */
  claimedBy: string | null;
  claimExpiresAt: Date | null;
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
  segment: string | null;
  claimed_by: string | null;
  claim_expires_at: Date | null;
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
  segment: r.segment,
  claimedBy: r.claimed_by,
  claimExpiresAt: r.claim_expires_at,
});

export type NewReview = Omit<ReviewRecord, 'filesDeletedAt' | 'claimedBy' | 'claimExpiresAt'>;

/** A review as queued, not run: a part of one statement with its upload and events (writeWithEvents). */
export function insertReviewQuery(db: Db, r: NewReview) {
  return db('reviews').insert({
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
    segment: r.segment,
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

/**
 * One page of the queue in submission order (or its reverse), after the cursor (keyset: stable while reviews
 * arrive). Filtered by status, program and segment, each walking its index (migrations 001 and 002).
 */
export async function listReviews(
  db: Db,
  query: {
    status: ReviewStatus | undefined;
    programId: string | undefined;
    segment: string | undefined;
    order: ReviewOrder;
    after: ReviewCursor | undefined;
    limit: number;
  },
): Promise<ReviewRecord[]> {
  const q = db('reviews');
  if (query.status) q.where({ status: query.status });
  if (query.programId) q.where({ program_id: query.programId });
  if (query.segment) q.where({ segment: query.segment });
  const direction = query.order === 'newest' ? 'desc' : 'asc';
  if (query.after)
    q.whereRaw(`(submitted_at, id) ${direction === 'asc' ? '>' : '<'} (?, ?)`, [
      query.after.submittedAt,
      query.after.id,
    ]);
  const rows = await q
    .orderBy([
      { column: 'submitted_at', order: direction },
      { column: 'id', order: direction },
    ])
    .limit(query.limit)
    .select<Row[]>('*');
  return rows.map(toRecord);
}

/** Records the decision; a decided review needs no claim any more, so any is cleared. */
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
      claimed_by: null,
      claim_expires_at: null,
    })
    .returning<Row[]>('*');
  return toRecord(rows[0]!);
}

/** Sets the review's claim (holder and lease end), or clears it with nulls. The caller holds the row lock. */
export async function recordClaim(
  db: Db,
  id: string,
  claim: { claimedBy: string | null; claimExpiresAt: Date | null },
): Promise<ReviewRecord> {
  const rows = await db('reviews')
    .where({ id })
    .update({ claimed_by: claim.claimedBy, claim_expires_at: claim.claimExpiresAt })
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
