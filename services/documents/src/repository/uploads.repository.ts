import type { UploadStatus } from '../domain';
import type { Db } from './db';

/** One docUpload attempt of a verification; test_mode and the ids come from the verification's context. */
export interface UploadRecord {
  id: string;
  verificationId: string;
  programId: string;
  accountId: string;
  testMode: boolean;
  status: UploadStatus;
  createdAt: Date;
  submittedAt: Date | null;
  cancelledAt: Date | null;
  filesDeletedAt: Date | null;
  /** The verification's segment when the files were announced; null for uploads created before it was kept. */
  segment: string | null;
}

interface Row {
  id: string;
  verification_id: string;
  program_id: string;
  account_id: string;
  test_mode: boolean;
  status: UploadStatus;
  created_at: Date;
  submitted_at: Date | null;
  cancelled_at: Date | null;
  files_deleted_at: Date | null;
  segment: string | null;
}

const toRecord = (r: Row): UploadRecord => ({
  id: r.id,
  verificationId: r.verification_id,
  programId: r.program_id,
  accountId: r.account_id,
  testMode: r.test_mode,
  status: r.status,
  createdAt: r.created_at,
  submittedAt: r.submitted_at,
  cancelledAt: r.cancelled_at,
  filesDeletedAt: r.files_deleted_at,
  segment: r.segment,
});

export type NewUpload = Pick<
  UploadRecord,
  'id' | 'verificationId' | 'programId' | 'accountId' | 'testMode' | 'createdAt' | 'segment'
>;

/** An open upload (form A: its files come later). */
export async function insertUpload(db: Db, u: NewUpload): Promise<void> {
  await insertUploadQuery(db, u);
}

/**
 * Open, or submitted at `submittedAt` (form B: its files are in), not run: a part of one statement with
 * others (writeWithEvents).
 */
export function insertUploadQuery(db: Db, u: NewUpload, submittedAt?: Date) {
  return db('uploads').insert({
    id: u.id,
    verification_id: u.verificationId,
    program_id: u.programId,
    account_id: u.accountId,
    test_mode: u.testMode,
    status: submittedAt ? 'submitted' : 'open',
    created_at: u.createdAt,
    ...(submittedAt ? { submitted_at: submittedAt } : {}),
    segment: u.segment,
  });
}

/**
 * Serialises the upload changes of one verification until the transaction ends: two uploads created at
 * once would otherwise both find no open upload to cancel, and the second would hit the one-open index.
 */
export async function lockVerificationUploads(trx: Db, verificationId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
    `documents.uploads:${verificationId}`,
  ]);
}

/** With `lock`, the row stays locked until the caller's transaction ends. */
export async function findUpload(db: Db, id: string, lock = false): Promise<UploadRecord | undefined> {
  const query = db('uploads').where({ id }).first<Row | undefined>();
  const row = await (lock ? query.forUpdate() : query);
  return row ? toRecord(row) : undefined;
}

export async function findLatestUpload(db: Db, verificationId: string): Promise<UploadRecord | undefined> {
  const row = await db('uploads')
    .where({ verification_id: verificationId })
    .orderBy('created_at', 'desc')
    .first<Row | undefined>();
  return row ? toRecord(row) : undefined;
}

/**
 * What a form B upload needs to know of the verification's uploads, read in one statement under
 * lockVerificationUploads: whether a submission is live (documents submitted whose review did not send the
 * verification back: pending or approved; then no other upload may be submitted, while a rejected review's
 * upload is an earlier attempt), and the open upload (form A's announcement) it replaces, by id, with its
 * files' object keys.
 */
export async function uploadsBeforeSubmission(
  db: Db,
  verificationId: string,
): Promise<{ live: boolean; openIds: string[]; openKeys: string[] }> {
  // Named columns and parameters: prepared once per connection (runtime's prepared-statements.ts).
  const { rows } = await db.raw<{ rows: { live: boolean; open_ids: string[]; open_keys: string[] }[] }>(
    `select exists (select 1 from uploads u join reviews r on r.upload_id = u.id
                     where u.verification_id = ? and u.status = 'submitted' and r.status <> 'rejected') as live,
            array(select u.id::text from uploads u where u.verification_id = ? and u.status = 'open') as open_ids,
            array(select d.object_key from uploads u join documents d on d.upload_id = u.id
                   where u.verification_id = ? and u.status = 'open') as open_keys`,
    [verificationId, verificationId, verificationId],
  );
  const row = rows[0]!;
  return { live: row.live, openIds: row.open_ids, openKeys: row.open_keys };
}

/** Open uploads by id -> cancelled, not run (a part of one statement with others, writeWithEvents). */
export function cancelUploadsQuery(db: Db, ids: readonly string[], now: Date) {
  return db('uploads')
    .whereIn('id', ids)
    .where({ status: 'open' })
    .update({ status: 'cancelled', cancelled_at: now });
}

/** Cancels the verification's open upload, if any; returns the ids cancelled. */
export async function cancelOpenUploads(db: Db, verificationId: string, now: Date): Promise<string[]> {
  const rows: { id: string }[] = await db('uploads')
    .where({ verification_id: verificationId, status: 'open' })
    .update({ status: 'cancelled', cancelled_at: now })
    .returning('id');
  return rows.map((r) => r.id);
}

/** open -> cancelled; false when the upload was not open. */
export async function cancelUploadRow(db: Db, id: string, now: Date): Promise<boolean> {
  const count = await db('uploads')
    .where({ id, status: 'open' })
    .update({ status: 'cancelled', cancelled_at: now });
  return count > 0;
}

/** open -> submitted, not run (a part of one statement with its review and events, writeWithEvents). */
export function markSubmittedQuery(db: Db, id: string, now: Date) {
  return db('uploads').where({ id, status: 'open' }).update({ status: 'submitted', submitted_at: now });
}

/** Open uploads created before `before`, oldest first, locked; rows other replicas hold are skipped. */
export async function lockAbandonedUploads(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db('uploads')
    .where({ status: 'open' })
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('id');
  return rows.map((r) => r.id);
}

/** Cancelled uploads (cancelled before `before`) whose objects were not deleted for good yet, locked. */
export async function lockCancelledToPurge(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db('uploads')
    .where({ status: 'cancelled' })
    .whereNull('files_deleted_at')
    .where('cancelled_at', '<', before)
    .orderBy('cancelled_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('id');
  return rows.map((r) => r.id);
}

export async function markUploadsCancelledAndPurged(
  db: Db,
  ids: readonly string[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db('uploads')
    .whereIn('id', ids)
    .update({
      status: 'cancelled',
      cancelled_at: db.raw('coalesce(cancelled_at, ?)', [now]),
      files_deleted_at: now,
    });
}
