import { resourceExhausted } from '@eligo/runtime';
import { checkAddSchoolRequest, type AddSchoolRequestInput } from '../domain/add-school';
import { newId, isId } from '../domain/ids';
import { decodePageToken, encodePageToken } from '../domain/page-token';
import { Problems } from '../domain/problems';
import * as events from '../events/publish';
import { countAddSchoolRequest } from '../repository/add-school-daily-counts.repository';
import {
  insertAddSchoolRequest,
  listAddSchoolRequests as listRecords,
  type AddSchoolRecord,
  type AddSchoolStatus,
} from '../repository/add-school-requests.repository';
import { countryFilter } from './add-school-search';
import type { AppContext } from './context';

/** A request as staff see it: the requester's fields decrypted. */
export interface AddSchoolRequestView {
  requestId: string;
  programId: string;
  status: AddSchoolStatus;
  firstName: string;
  lastName: string;
  email: string;
  schoolName: string;
  schoolDomain: string;
  schoolCountry: string;
  createdAt: Date;
  decidedAt: Date | null;
  organizationId: number | null;
  declineReason: string | null;
  trackingId: string | null;
}

type PiiField = 'firstName' | 'lastName' | 'email';
/** Each field is bound to its request and its name: a value copied to another row or column does not decrypt. */
const piiContext = (requestId: string, field: PiiField) => `${requestId}:${field}`;

/**
 * RequestAddSchool: validated, for an existing program that takes the school's country, within the daily
 * limit of the program. The count, the request (PII encrypted) and AddSchoolRequested (ids only) commit
 * together: a failed insert does not use up the limit.
 */
export async function requestAddSchool(ctx: AppContext, input: AddSchoolRequestInput): Promise<string> {
  const request = checkAddSchoolRequest(input);
  await countryFilter(ctx, request.programId, request.schoolCountry);
  const id = newId();
  await ctx.db.transaction(async (trx) => {
    if (!(await countAddSchoolRequest(trx, request.programId, ctx.addSchoolDailyLimit)))
      throw resourceExhausted('Too many add-school requests for this program today; try again tomorrow', {
        errorIds: ['tooManyAddSchoolRequests'],
      });
    await insertAddSchoolRequest(trx, {
      id,
      programId: request.programId,
      firstName: ctx.requesters.encrypt(request.firstName, piiContext(id, 'firstName')),
      lastName: ctx.requesters.encrypt(request.lastName, piiContext(id, 'lastName')),
      email: ctx.requesters.encrypt(request.email, piiContext(id, 'email')),
      schoolName: request.schoolName,
      schoolDomain: request.schoolDomain,
      schoolCountry: request.schoolCountry,
      trackingId: request.trackingId || null,
    });
    await events.addSchoolRequested(trx, ctx.schema, {
      requestId: id,
      programId: request.programId,
      schoolCountry: request.schoolCountry,
    });
  });
  return id;
}

export function toView(ctx: AppContext, record: AddSchoolRecord): AddSchoolRequestView {
  return {
    requestId: record.id,
    programId: record.programId,
    status: record.status,
    firstName: ctx.requesters.decrypt(record.firstName, piiContext(record.id, 'firstName')),
    lastName: ctx.requesters.decrypt(record.lastName, piiContext(record.id, 'lastName')),
    email: ctx.requesters.decrypt(record.email, piiContext(record.id, 'email')),
    schoolName: record.schoolName,
    schoolDomain: record.schoolDomain,
    schoolCountry: record.schoolCountry,
    createdAt: record.createdAt,
    decidedAt: record.decidedAt,
    organizationId: record.organizationId,
    declineReason: record.declineReason,
    trackingId: record.trackingId,
  };
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

/** ListAddSchoolRequests (operators): newest first, filtered, paged by an opaque keyset token. */
export async function listAddSchoolRequests(
  ctx: AppContext,
  request: {
    status: AddSchoolStatus | null | undefined;
    programId: string;
    pageSize: number;
    pageToken: string;
  },
): Promise<{ requests: AddSchoolRequestView[]; nextPageToken: string }> {
  const problems = new Problems();
  if (request.status === undefined) problems.add('status', 'is not a known status');
  if (request.programId !== '' && !isId(request.programId))
    problems.add('programId', 'is not a valid program id (24 lowercase hex characters)');
  const pageSize = request.pageSize === 0 ? DEFAULT_PAGE_SIZE : request.pageSize;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    problems.add('pageSize', `must be between 1 and ${MAX_PAGE_SIZE} (0 = ${DEFAULT_PAGE_SIZE})`);
  problems.throwIfAny();
  const after = request.pageToken === '' ? null : decodePageToken(request.pageToken);
  // One row more than the page tells whether another page follows.
  const records = await listRecords(ctx.db, {
    status: request.status ?? null,
    programId: request.programId === '' ? null : request.programId,
    after,
    limit: pageSize + 1,
  });
  const page = records.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    requests: page.map((r) => toView(ctx, r)),
    nextPageToken:
      records.length > pageSize && last ? encodePageToken({ createdAt: last.createdAt, id: last.id }) : '',
  };
}
