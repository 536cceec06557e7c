import { invalidArgument } from '@eligo/runtime';
import { REVIEW_STATUSES, type ReviewStatus } from './documents';
import { isUuid } from './ids';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** Where the next page of the review queue starts: after this (submitted_at, id). */
export interface ReviewCursor {
  submittedAt: Date;
  id: string;
}

export interface ReviewQuery {
  status: ReviewStatus | undefined;
  limit: number;
  after: ReviewCursor | undefined;
}

const CURSOR = /^(\d{1,15})\.([0-9a-f-]{36})$/;

/** Opaque to clients: base64url of "epochMs.id", so that its shape can change without a contract change. */
export function encodeCursor(cursor: ReviewCursor): string {
  return Buffer.from(`${cursor.submittedAt.getTime()}.${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(value: string): ReviewCursor {
  const match = CURSOR.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!match || !isUuid(match[2]!)) throw invalidArgument('Invalid cursor');
  return { submittedAt: new Date(Number(match[1])), id: match[2]! };
}

/** A list request (empty status = all, limit 0 = default, empty cursor = first page), checked. */
export function parseReviewQuery(request: { status: string; limit: number; cursor: string }): ReviewQuery {
  if (request.status !== '' && !(REVIEW_STATUSES as readonly string[]).includes(request.status))
    throw invalidArgument(`status must be one of ${REVIEW_STATUSES.join(', ')}`);
  const limit = request.limit === 0 ? DEFAULT_PAGE_SIZE : request.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    throw invalidArgument(`limit must be between 1 and ${MAX_PAGE_SIZE}`);
  return {
    status: request.status === '' ? undefined : (request.status as ReviewStatus),
    limit,
    after: request.cursor === '' ? undefined : decodeCursor(request.cursor),
  };
}
