import { invalidArgument } from '@eligo/runtime';
import { isId } from '@eligo/vocabulary';
import { isVerificationId } from './ids';
import { normalizedEmail } from './person-key';

/**
 * The staff search of verifications (SearchVerifications): which filters it takes and how it pages. Pure: the
 * email is only folded here (person-key.ts); the app keys it with the HMAC the verification stored.
 *
 * Paging is by keyset, newest first in the order (created_at desc, id desc): a page starts after the last row
 * of the previous one, so rows added meanwhile never make one listed twice or skipped. created_at has
 * microseconds (now() of the insert), more than a JavaScript Date holds, so the position travels as the text
 * Postgres gives for it (to_char, UTC, six fractional digits) and goes back to Postgres as that text.
 */
export const DEFAULT_SEARCH_PAGE_SIZE = 50;
export const MAX_SEARCH_PAGE_SIZE = 100;
/** As StartVerification's tracking id (start.ts). */
export const MAX_TRACKING_ID_FILTER_LENGTH = 256;
/** RFC 5321's longest forward path; a longer text cannot be an address anyone gave. */
export const MAX_EMAIL_FILTER_LENGTH = 254;
/** Longer than any token this service gives (about 80 characters): refused before it is decoded. */
const MAX_PAGE_TOKEN_LENGTH = 200;

/** A position in the order: created_at as Postgres's UTC text with microseconds, and the id. */
export interface SearchPosition {
  createdAt: string;
  id: string;
}

export interface SearchQuery {
  trackingId: string | null;
  /** Trimmed and lower-cased (normalizedEmail); keyed by the app before it reaches a query. */
  email: string | null;
  programId: string | null;
  limit: number;
  /** null: the first page. */
  after: SearchPosition | null;
}

export interface SearchRequest {
  trackingId: string;
  email: string;
  programId: string;
  pageSize: number;
  pageToken: string;
}

const CREATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const invalid = (message: string) => invalidArgument(message, { errorIds: ['invalidRequest'] });

/** base64url of {"t": created_at text, "i": id}: opaque to callers, so that its content may change. */
export function encodeSearchToken(position: SearchPosition): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt, i: position.id })).toString('base64url');
}

/**
 * The position a token names; undefined for anything this service did not give out. Node's base64 decoder
 * skips characters it does not know, so the position is encoded again and must give the very same token.
 */
export function decodeSearchToken(token: string): SearchPosition | undefined {
  if (token.length > MAX_PAGE_TOKEN_LENGTH) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { t, i } = value as { t?: unknown; i?: unknown };
  if (typeof t !== 'string' || !isInstant(t)) return undefined;
  if (typeof i !== 'string' || !isVerificationId(i)) return undefined;
  const position = { createdAt: t, id: i };
  return encodeSearchToken(position) === token ? position : undefined;
}

/**
 * The text of a real instant: Postgres refuses a day that does not exist (a statement error, 500) where
 * JavaScript rolls 2026-02-30 over to March, so the date must survive the trip through a Date unchanged.
 */
function isInstant(text: string): boolean {
  if (!CREATED_AT.test(text)) return false;
  const ms = Date.parse(text);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19);
}

/** A text filter: '' (or only spaces) is none; control characters and overlong values are refused. */
function textFilter(name: string, value: string, max: number): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (value.length > max) throw invalid(`${name}: at most ${max} characters`);
  // Never echoed: the email is personal data, and the message reaches logs of callers.
  if (CONTROL.test(value)) throw invalid(`${name}: must not contain control characters`);
  return trimmed;
}

/**
 * The request checked: at least one filter, a program id of the right shape, a page size of 1 to 100 (0 =
 * the default) and a token this service gave. Refusals are INVALID_ARGUMENT invalidRequest naming the field,
 * never its value.
 */
export function searchQueryOf(request: SearchRequest): SearchQuery {
  const trackingId = textFilter('trackingId', request.trackingId, MAX_TRACKING_ID_FILTER_LENGTH);
  const email = textFilter('email', request.email, MAX_EMAIL_FILTER_LENGTH);
  let programId: string | null = null;
  if (request.programId !== '') {
    if (!isId(request.programId)) throw invalid('programId: must be 24 lowercase hex characters');
    programId = request.programId;
  }
  if (trackingId === null && email === null && programId === null)
    throw invalid('At least one of trackingId, email and programId is required');
  const limit = request.pageSize === 0 ? DEFAULT_SEARCH_PAGE_SIZE : request.pageSize;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_PAGE_SIZE)
    throw invalid(
      `pageSize: must be between 1 and ${MAX_SEARCH_PAGE_SIZE} (0 = ${DEFAULT_SEARCH_PAGE_SIZE})`,
    );
  let after: SearchPosition | null = null;
  if (request.pageToken !== '') {
    after = decodeSearchToken(request.pageToken) ?? null;
    if (after === null) throw invalid('pageToken: is not a nextPageToken of this search');
  }
  return {
    trackingId,
    email: email === null ? null : normalizedEmail(email),
    programId,
    limit,
    after,
  };
}

/**
 * One page from the rows read for it: the query reads limit + 1 rows; the extra one only tells that another
 * page follows, whose token is the position of this page's last row.
 */
export function searchPageOf<T extends { position: SearchPosition }>(
  rows: readonly T[],
  limit: number,
): { items: T[]; nextPageToken: string } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextPageToken: rows.length > limit && last ? encodeSearchToken(last.position) : '' };
}
