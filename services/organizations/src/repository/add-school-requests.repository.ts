import type { PageCursor } from '../domain/page-token';
import type { Db } from './db';

export type AddSchoolStatus = 'PENDING' | 'ACCEPTED' | 'DECLINED';

/** A stored request; the requester's fields are still encrypted (bound to the id and the field name). */
export interface AddSchoolRecord {
  id: string;
  programId: string;
  status: AddSchoolStatus;
  firstName: Buffer;
  lastName: Buffer;
  email: Buffer;
  schoolName: string;
  schoolDomain: string;
  schoolCountry: string;
  createdAt: Date;
  decidedAt: Date | null;
  organizationId: number | null;
  declineReason: string | null;
  /** The client's identifier sent with the request; null when none. */
  trackingId: string | null;
}

interface AddSchoolRow {
  id: string;
  program_id: string;
  status: AddSchoolStatus;
  first_name: Buffer;
  last_name: Buffer;
  email: Buffer;
  school_name: string;
  school_domain: string;
  school_country: string;
  created_at: Date;
  decided_at: Date | null;
  organization_id: string | null;
  decline_reason: string | null;
  tracking_id: string | null;
}

export async function insertAddSchoolRequest(
  db: Db,
  request: Pick<
    AddSchoolRecord,
    | 'id'
    | 'programId'
    | 'firstName'
    | 'lastName'
    | 'email'
    | 'schoolName'
    | 'schoolDomain'
    | 'schoolCountry'
    | 'trackingId'
  >,
): Promise<AddSchoolRecord> {
  const [row] = (await db
    .table('add_school_requests')
    .insert({
      id: request.id,
      program_id: request.programId,
      status: 'PENDING',
      first_name: request.firstName,
      last_name: request.lastName,
      email: request.email,
      school_name: request.schoolName,
      school_domain: request.schoolDomain,
      school_country: request.schoolCountry,
      tracking_id: request.trackingId,
    })
    .returning('*')) as AddSchoolRow[];
  return toRecord(row!);
}

/** In a transaction: the row locked until commit, so that two staff decisions cannot both apply. */
export async function lockAddSchoolRequest(db: Db, id: string): Promise<AddSchoolRecord | undefined> {
  const row = (await db.table('add_school_requests').where({ id }).forUpdate().first()) as
    AddSchoolRow | undefined;
  return row && toRecord(row);
}

export async function decideAddSchoolRequest(
  db: Db,
  id: string,
  decision: { status: 'ACCEPTED'; organizationId: number } | { status: 'DECLINED'; reason: string },
): Promise<AddSchoolRecord> {
  const [row] = (await db
    .table('add_school_requests')
    .where({ id })
    .update({
      status: decision.status,
      decided_at: db.fn.now(),
      organization_id: decision.status === 'ACCEPTED' ? decision.organizationId : null,
      decline_reason: decision.status === 'DECLINED' && decision.reason !== '' ? decision.reason : null,
    })
    .returning('*')) as AddSchoolRow[];
  return toRecord(row!);
}

export interface ListFilter {
  status: AddSchoolStatus | null;
  programId: string | null;
  after: PageCursor | null;
  limit: number;
}

/** Newest first, by (created_at, id) keyset: stable under concurrent inserts, no offset scans. */
export async function listAddSchoolRequests(db: Db, filter: ListFilter): Promise<AddSchoolRecord[]> {
  const query = db.table('add_school_requests').orderBy([
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (filter.status !== null) query.where('status', filter.status);
  if (filter.programId !== null) query.where('program_id', filter.programId);
  if (filter.after !== null)
    query.whereRaw('(created_at, id) < (?, ?)', [filter.after.createdAt, filter.after.id]);
  const rows = (await query.limit(filter.limit).select('*')) as AddSchoolRow[];
  return rows.map(toRecord);
}

function toRecord(row: AddSchoolRow): AddSchoolRecord {
  return {
    id: row.id,
    programId: row.program_id,
    status: row.status,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    schoolName: row.school_name,
    schoolDomain: row.school_domain,
    schoolCountry: row.school_country,
    createdAt: row.created_at,
    decidedAt: row.decided_at,
    organizationId: row.organization_id === null ? null : Number(row.organization_id),
    declineReason: row.decline_reason,
    trackingId: row.tracking_id,
  };
}
