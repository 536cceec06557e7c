import type { VerificationAnswer } from '../domain/answer';
import type { Knex } from '@eligo/runtime';
import type { Db } from './db';

/** A stored verification; person and metadata are still encrypted. */
export interface VerificationRecord {
  id: string;
  programId: string;
  accountId: string;
  trackingId: string | null;
  segment: string;
  subSegment: string | null;
  currentStep: string;
  testMode: boolean;
  errorIds: string[];
  rewardCode: string | null;
  person: Buffer | null;
  metadata: Buffer | null;
  personEmailHash: Buffer | null;
  personIdentityHash: Buffer | null;
  organizationId: number | null;
  organizationName: string | null;
  country: string | null;
  verificationMethod: string | null;
  docUploadRejectionCount: number;
  docUploadRejectionReasons: string[];
  instantMatchAttempts: number;
  /** The answer of the last change (domain/answer.ts: its JSON is the stored format). */
  lastResponse: VerificationAnswer;
  succeededAt: Date | null;
  expiresAt: Date;
  /** The call that last changed the verification (idempotent retries), and the one that started it. */
  lastRequestId: string | null;
  startRequestId: string | null;
  /** The documents review a pending verification waits for (or last waited for). */
  currentReviewId: string | null;
  /** The client's BCP 47 tag (canonical) for the responses; null: the program's. */
  locale: string | null;
  createdAt: Date;
  updatedAt: Date;
  /**
   * The row version (Postgres's xmin) the record was read at, by findVerificationVersion only: a change
   * applied to such a record is written only if the row is still that version (app/transition.ts).
   */
  version?: string;
}

interface Row {
  id: string;
  program_id: string;
  account_id: string;
  tracking_id: string | null;
  segment: string;
  sub_segment: string | null;
  current_step: string;
  test_mode: boolean;
  error_ids: string[];
  reward_code: string | null;
  person: Buffer | null;
  metadata: Buffer | null;
  person_email_hash: Buffer | null;
  person_identity_hash: Buffer | null;
  organization_id: string | null;
  organization_name: string | null;
  country: string | null;
  verification_method: string | null;
  doc_upload_rejection_count: number;
  doc_upload_rejection_reasons: string[];
  instant_match_attempts: number;
  /** jsonb: the JSON of a VerificationAnswer, the shape rows have always had (domain/answer.ts). */
  last_response: VerificationAnswer;
  succeeded_at: Date | null;
  expires_at: Date;
  last_request_id: string | null;
  start_request_id: string | null;
  current_review_id: string | null;
  locale: string | null;
  created_at: Date;
  updated_at: Date;
}

type Column = Exclude<keyof VerificationRecord, 'version'>;

const COLUMNS: Record<Column, keyof Row> = {
  id: 'id',
  programId: 'program_id',
  accountId: 'account_id',
  trackingId: 'tracking_id',
  segment: 'segment',
  subSegment: 'sub_segment',
  currentStep: 'current_step',
  testMode: 'test_mode',
  errorIds: 'error_ids',
  rewardCode: 'reward_code',
  person: 'person',
  metadata: 'metadata',
  personEmailHash: 'person_email_hash',
  personIdentityHash: 'person_identity_hash',
  organizationId: 'organization_id',
  organizationName: 'organization_name',
  country: 'country',
  verificationMethod: 'verification_method',
  docUploadRejectionCount: 'doc_upload_rejection_count',
  docUploadRejectionReasons: 'doc_upload_rejection_reasons',
  instantMatchAttempts: 'instant_match_attempts',
  lastResponse: 'last_response',
  succeededAt: 'succeeded_at',
  expiresAt: 'expires_at',
  lastRequestId: 'last_request_id',
  startRequestId: 'start_request_id',
  currentReviewId: 'current_review_id',
  locale: 'locale',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const SELECTED = Object.values(COLUMNS);

function toRecord(row: Row): VerificationRecord {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMNS)) out[field] = row[column];
  const record = out as unknown as VerificationRecord;
  // bigint comes back as a string from pg; catalog ids fit in a double.
  record.organizationId = row.organization_id === null ? null : Number(row.organization_id);
  return record;
}

function toRow(fields: Partial<VerificationRecord>): Partial<Row> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) {
    // The version is what a row was read at, never a column to write.
    if (value === undefined || field === 'version') continue;
    const column = COLUMNS[field as Column];
    // jsonb: knex would send a JS object as-is, pg would turn arrays into Postgres arrays.
    out[column] = column === 'last_response' ? JSON.stringify(value) : value;
  }
  return out as Partial<Row>;
}

export type NewVerification = Omit<
  VerificationRecord,
  | 'createdAt'
  | 'updatedAt'
  | 'docUploadRejectionCount'
  | 'docUploadRejectionReasons'
  | 'instantMatchAttempts'
  | 'succeededAt'
  | 'lastRequestId'
  | 'currentReviewId'
>;

/** A new verification's insert, not yet run: steps.repository's writeWithStep runs it with its first step. */
export function insertVerificationQuery(db: Db, record: NewVerification): Knex.QueryBuilder {
  return db('verifications').insert(toRow(record));
}

/** The verification a call with this request id started, if any. */
export async function findByStartRequestId(
  db: Db,
  requestId: string,
): Promise<VerificationRecord | undefined> {
  const row = await db('verifications').where({ start_request_id: requestId }).first<Row | undefined>();
  return row ? toRecord(row) : undefined;
}

/** With `lock`, the row stays locked until the caller's transaction ends (one submission at a time). */
export async function findVerification(
  db: Db,
  id: string,
  lock = false,
): Promise<VerificationRecord | undefined> {
  // Its columns named (not *): the statement is prepared once per connection (runtime's prepared-statements.ts),
  // which a column added by a later migration must not change the result of.
  const query = db('verifications').where({ id }).first<Row | undefined>(SELECTED);
  const row = await (lock ? query.forUpdate() : query);
  return row ? toRecord(row) : undefined;
}

/**
 * The verification read without a lock, with the version of its row: the submission decides on it and writes
 * its change in one statement that applies only to that version (app/submit.ts), a row that changed meanwhile
 * is then read again under a lock.
 */
export async function findVerificationVersion(db: Db, id: string): Promise<VerificationRecord | undefined> {
  const row = await db('verifications')
    .where({ id })
    .first<(Row & { version: string }) | undefined>([...SELECTED, db.raw('xmin::text as version')]);
  return row ? { ...toRecord(row), version: row.version } : undefined;
}

export async function updateVerification(
  db: Db,
  id: string,
  changes: Partial<Omit<VerificationRecord, 'id' | 'createdAt' | 'version'>>,
): Promise<void> {
  await updateVerificationQuery(db, id, changes);
}

/**
 * updateVerification's statement, not yet run (steps.repository's writeWithStep runs it with its step); with
 * `version`, it updates the row only if it is still that version (findVerificationVersion).
 */
export function updateVerificationQuery(
  db: Db,
  id: string,
  changes: Partial<Omit<VerificationRecord, 'id' | 'createdAt' | 'version'>>,
  version?: string,
): Knex.QueryBuilder {
  const row = db('verifications').where({ id });
  return (version === undefined ? row : row.whereRaw('xmin = ?::xid', [version])).update({
    ...toRow(changes),
    updated_at: db.fn.now(),
  });
}

/** The verifications of a program's tracking id, newest first. */
export async function findByTrackingId(
  db: Db,
  programId: string,
  trackingId: string,
  limit: number,
): Promise<VerificationRecord[]> {
  const rows = await db('verifications')
    .where({ program_id: programId, tracking_id: trackingId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select<Row[]>('*');
  return rows.map(toRecord);
}

/** The most recent verification of an account with this tracking id (created last; the id breaks ties). */
export async function findLatestByAccountTrackingId(
  db: Db,
  accountId: string,
  trackingId: string,
): Promise<VerificationRecord | undefined> {
  const row = await db('verifications')
    .where({ account_id: accountId, tracking_id: trackingId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first<Row | undefined>();
  return row ? toRecord(row) : undefined;
}

/** A verification's encrypted person and metadata. */
export type SealedPersonalInfo = Pick<VerificationRecord, 'id' | 'person' | 'metadata'>;

/**
 * The encrypted person and metadata of the account's verifications among `ids`, in one query however many
 * ids there are; other accounts' and unknown ids are simply not in the result.
 */
export async function findPersonalInfo(
  db: Db,
  accountId: string,
  ids: readonly string[],
): Promise<SealedPersonalInfo[]> {
  return db('verifications')
    .whereRaw('id = any(?::text[])', [[...ids]])
    .andWhere({ account_id: accountId })
    .select<SealedPersonalInfo[]>('id', 'person', 'metadata');
}

/**
 * Successful verifications of the person in the program since `since`, found by either hash (the same
 * person may type another email, or misspell a name). Other verifications than `exceptId` only.
 */
export async function countPersonSuccesses(
  db: Db,
  query: { programId: string; emailHash: Buffer; identityHash: Buffer | null; since: Date; exceptId: string },
): Promise<number> {
  const rows = await db('verifications')
    .where({ program_id: query.programId })
    .whereNot({ id: query.exceptId })
    .where('succeeded_at', '>=', query.since)
    .where((w) => {
      w.where({ person_email_hash: query.emailHash });
      if (query.identityHash) w.orWhere({ person_identity_hash: query.identityHash });
    })
    .count<{ count: string }[]>('* as count');
  return Number(rows[0]!.count);
}

/** Unfinished verifications whose time is up, locked for the sweep (other replicas skip them). */
export async function lockExpired(db: Db, now: Date, limit: number): Promise<VerificationRecord[]> {
  const rows = await db('verifications')
    .where('expires_at', '<=', now)
    .whereNotIn('current_step', ['success', 'error'])
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select<Row[]>('*');
  return rows.map(toRecord);
}
