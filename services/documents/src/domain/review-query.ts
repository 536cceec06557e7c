import { invalidArgument } from '@eligo/runtime';
import { isId, isSegment, type Segment } from '@eligo/vocabulary';
import { REVIEW_STATUSES, type ReviewStatus } from './documents';
import { isUuid } from './ids';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** The queue's orders: submission order (the default, the console's), or the latest submission first. */
export const REVIEW_ORDERS = ['oldest', 'newest'] as const;
export type ReviewOrder = (typeof REVIEW_ORDERS)[number];

/** Where the next page of the review queue starts: after this (submitted_at, id) in the page's order. */
export interface ReviewCursor {
  submittedAt: Date;
  id: string;
}

export interface ReviewQuery {
  status: ReviewStatus | undefined;
  programId: string | undefined;
  segment: Segment | undefined;
  order: ReviewOrder;
  limit: number;
  after: ReviewCursor | undefined;
}

// "epochMs.id" for the oldest-first order (as cursors were before orders existed), "n.epochMs.id" for newest.
const CURSOR = /^(n\.)?(\d{1,15})\.([0-9a-f-]{36})$/;

/**
 * Opaque to clients: base64url of "epochMs.id" (prefixed "n." in the newest-first order), so that its shape
 * can change without a contract change, and a cursor of one order is not read in the other.
 */
export function encodeCursor(cursor: ReviewCursor, order: ReviewOrder = 'oldest'): string {
  const prefix = order === 'newest' ? 'n.' : '';
  return Buffer.from(`${prefix}${cursor.submittedAt.getTime()}.${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(value: string, order: ReviewOrder = 'oldest'): ReviewCursor {
  const match = CURSOR.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!match || !isUuid(match[3]!) || (match[1] === 'n.') !== (order === 'newest'))
    throw invalidArgument('Invalid cursor');
  return { submittedAt: new Date(Number(match[2])), id: match[3]! };
}

export interface ReviewListRequest {
  status: string;
  limit: number;
  cursor: string;
  programId?: string;
  segment?: string;
  order?: string;
}

/**
 * A list request (empty status, program, segment = all; empty order = oldest first; limit 0 = default; empty
 * cursor = first page), checked.
 */
export function parseReviewQuery(request: ReviewListRequest): ReviewQuery {
  if (request.status !== '' && !(REVIEW_STATUSES as readonly string[]).includes(request.status))
    throw invalidArgument(`status must be one of ${REVIEW_STATUSES.join(', ')}`);
  const limit = request.limit === 0 ? DEFAULT_PAGE_SIZE : request.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    throw invalidArgument(`limit must be between 1 and ${MAX_PAGE_SIZE}`);
  const programId = request.programId ?? '';
  if (programId !== '' && !isId(programId))
    throw invalidArgument('program_id must be 24 lowercase hex characters');
  const segment = request.segment ?? '';
  if (segment !== '' && !isSegment(segment)) throw invalidArgument(`segment ${segment} is not a segment`);
  const order = request.order || 'oldest';
  if (!(REVIEW_ORDERS as readonly string[]).includes(order))
    throw invalidArgument(`order must be one of ${REVIEW_ORDERS.join(', ')}`);
  return {
    status: request.status === '' ? undefined : (request.status as ReviewStatus),
    programId: programId === '' ? undefined : programId,
    segment: segment === '' ? undefined : (segment as Segment),
    order: order as ReviewOrder,
    limit,
    after: request.cursor === '' ? undefined : decodeCursor(request.cursor, order as ReviewOrder),
  };
}
