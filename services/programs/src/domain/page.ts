import { isId } from './ids';
import type { Problems } from './invalid';

/**
 * Keyset paging of the staff console's lists (ListAccounts, ListAccessTokens, ListPrograms): newest first, in
 * the order (created_at desc, id desc), a page starting after the last row of the previous one. Positions do
 * not move when rows are added, so paging through a list lists no row twice and skips none; rows created
 * after the first page come before it and are not listed.
 */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** Longer than any token this service gives (about 70 characters): refused before it is decoded. */
export const MAX_PAGE_TOKEN_LENGTH = 200;

/** A position in the order: the created_at and id of the last row of the previous page. */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

export interface PageQuery {
  limit: number;
  /** null: the first page. */
  after: PageCursor | null;
}

/**
 * The token is the organizations service's format (its add-school request list): base64url of the JSON
 * {"t": created_at in epoch milliseconds, "i": id}, opaque to callers so that it may change. created_at
 * columns of listed tables are stored to the millisecond (migration 007), so a position survives the trip
 * through a JavaScript Date exactly.
 */
export function encodePageToken(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ t: cursor.createdAt.getTime(), i: cursor.id })).toString('base64url');
}

/**
 * The position a token names; undefined for anything this service did not give out. Only the exact text of
 * a token reads back: Node's base64 decoder skips characters it does not know, so the decoded position is
 * encoded again and must give the same token.
 */
export function decodePageToken(token: string): PageCursor | undefined {
  if (token.length > MAX_PAGE_TOKEN_LENGTH) return undefined;
  let value: { t?: unknown; i?: unknown };
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { t?: unknown; i?: unknown };
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { t, i } = value;
  if (!Number.isSafeInteger(t) || typeof i !== 'string' || !isId(i)) return undefined;
  const createdAt = new Date(t as number);
  if (Number.isNaN(createdAt.getTime())) return undefined;
  const cursor = { createdAt, id: i };
  return encodePageToken(cursor) === token ? cursor : undefined;
}

/** pageSize (0: the default) and pageToken ('' : the first page) checked; problems are recorded, not thrown. */
export function checkPage(problems: Problems, request: { pageSize: number; pageToken: string }): PageQuery {
  const size = request.pageSize === 0 ? DEFAULT_PAGE_SIZE : request.pageSize;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE)
    problems.add('pageSize', `must be between 1 and ${MAX_PAGE_SIZE} (0 = ${DEFAULT_PAGE_SIZE})`);
  let after: PageCursor | null = null;
  if (request.pageToken !== '') {
    after = decodePageToken(request.pageToken) ?? null;
    if (after === null) problems.add('pageToken', 'is not a nextPageToken of this list');
  }
  return { limit: size, after };
}

/**
 * One page from the rows read for it: the query reads limit + 1 rows, and the extra one only tells that
 * another page follows (whose token is the position of the page's last row).
 */
export function pageOf<T extends PageCursor>(
  rows: readonly T[],
  page: PageQuery,
): { items: T[]; nextPageToken: string } {
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    items,
    nextPageToken: rows.length > page.limit && last ? encodePageToken(last) : '',
  };
}
