import { invalidArgument } from '@eligo/runtime';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Where the next page (newest first) starts: before this (created_at, id). */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

export interface PageQuery {
  limit: number;
  before: PageCursor | undefined;
}

const CURSOR = /^(\d{1,15})\.([A-Za-z0-9_]{1,64})$/;

/** Opaque to clients: base64url of "epochMs.id", so that its shape can change without a contract change. */
export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(`${cursor.createdAt.getTime()}.${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(value: string): PageCursor {
  const match = CURSOR.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!match) throw invalidArgument('Invalid cursor');
  return { createdAt: new Date(Number(match[1])), id: match[2]! };
}

/** limit 0 = the default, empty cursor = the first page. */
export function parsePageQuery(request: { limit: number; cursor: string }): PageQuery {
  const limit = request.limit === 0 ? DEFAULT_PAGE_SIZE : request.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    throw invalidArgument(`limit must be between 1 and ${MAX_PAGE_SIZE}`);
  return { limit, before: request.cursor === '' ? undefined : decodeCursor(request.cursor) };
}
