import type { SearchPosition } from '../domain/search';
import type { Db } from './db';

/** A verification as the staff search lists it: no person data is read. */
export interface VerificationSummaryRecord {
  id: string;
  programId: string;
  accountId: string;
  segment: string;
  currentStep: string;
  testMode: boolean;
  trackingId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Where the row stands in the order, exactly (microseconds), for the next page's token. */
  position: SearchPosition;
}

interface SummaryRow {
  id: string;
  program_id: string;
  account_id: string;
  segment: string;
  current_step: string;
  test_mode: boolean;
  tracking_id: string | null;
  created_at: Date;
  updated_at: Date;
  created_key: string;
}

export interface SearchFilter {
  trackingId: string | null;
  /** The keyed HMAC of the normalised email (person_email_hash), never the address. */
  emailHash: Buffer | null;
  programId: string | null;
  after: SearchPosition | null;
  limit: number;
}

/**
 * Newest first after `after`, every given filter applied. Each filter alone walks an index of migration 007
 * ((tracking_id | person_email_hash | program_id), created_at desc, id desc) from the position on; the planner
 * picks one when several are given. created_key is created_at in the text decodeSearchToken accepts, and the
 * position goes back as that text, so no precision is lost on the way through JavaScript.
 */
export async function searchVerifications(
  db: Db,
  filter: SearchFilter,
): Promise<VerificationSummaryRecord[]> {
  const query = db('verifications').select(
    'id',
    'program_id',
    'account_id',
    'segment',
    'current_step',
    'test_mode',
    'tracking_id',
    'created_at',
    'updated_at',
    db.raw(`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key`),
  );
  if (filter.trackingId !== null) void query.where({ tracking_id: filter.trackingId });
  if (filter.emailHash !== null) void query.where({ person_email_hash: filter.emailHash });
  if (filter.programId !== null) void query.where({ program_id: filter.programId });
  if (filter.after)
    void query.whereRaw('(created_at, id) < (?::timestamptz, ?)', [filter.after.createdAt, filter.after.id]);
  const rows = (await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(filter.limit)) as SummaryRow[];
  return rows.map((r) => ({
    id: r.id,
    programId: r.program_id,
    accountId: r.account_id,
    segment: r.segment,
    currentStep: r.current_step,
    testMode: r.test_mode,
    trackingId: r.tracking_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    position: { createdAt: r.created_key, id: r.id },
  }));
}
