import { notFound } from '@eligo/runtime';
import { encodeCursor, isUuid, parseReviewQuery, type ReviewListRequest } from '../domain';
import { documentsOfUploads, type DocumentRecord } from '../repository/documents.repository';
import { findReview, listReviews, type ReviewRecord } from '../repository/reviews.repository';
import type { Db } from '../repository/db';
import type { AppContext } from './context';
import { reviewView, type ReviewView } from './views';

export interface ReviewPage {
  reviews: ReviewView[];
  /** Empty on the last page. */
  nextCursor: string;
}

/** A link to one file of a review, valid until `expiresAt`. */
export interface ReviewFileLink {
  documentId: string;
  url: string;
  expiresAt: Date;
}

export interface ReviewWithFiles {
  review: ReviewView;
  /** Empty once retention deleted the files. */
  files: ReviewFileLink[];
}

/**
 * The staff queue, oldest submission first (or newest), filtered by status, program and segment, one page at
 * a time (keyset cursor on submitted_at, id).
 */
export async function listReviewPage(ctx: AppContext, request: ReviewListRequest): Promise<ReviewPage> {
  const query = parseReviewQuery(request);
  // One more than asked tells whether another page follows, without a count.
  const records = await listReviews(ctx.db, { ...query, limit: query.limit + 1 });
  const page = records.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    reviews: await withDocuments(ctx, ctx.db, page),
    nextCursor:
      records.length > query.limit && last
        ? encodeCursor({ submittedAt: last.submittedAt, id: last.id }, query.order)
        : '',
  };
}

/** A review with links to its files, valid for a few minutes (none once retention deleted the files). */
export async function getReview(ctx: AppContext, reviewId: string): Promise<ReviewWithFiles> {
  const record = isUuid(reviewId) ? await findReview(ctx.db, reviewId) : undefined;
  if (!record) throw notFound('Review not found');
  return withFiles(ctx, ctx.db, record);
}

/** The review as GetReview answers it: with its documents and a link to each stored file. */
export async function withFiles(ctx: AppContext, db: Db, record: ReviewRecord): Promise<ReviewWithFiles> {
  const documents = await documentsOfUploads(db, [record.uploadId]);
  return {
    review: reviewView(ctx, record, documents),
    files: record.filesDeletedAt ? [] : await fileLinks(ctx, documents),
  };
}

async function fileLinks(ctx: AppContext, documents: DocumentRecord[]): Promise<ReviewFileLink[]> {
  const expiresAt = new Date(ctx.now().getTime() + ctx.reviewLinkSeconds * 1000);
  return Promise.all(
    documents
      .filter((d) => d.status === 'UPLOADED')
      .map(async (d) => ({
        documentId: d.id,
        url: await ctx.store.presignGet(d.objectKey, { expiresInSeconds: ctx.reviewLinkSeconds }),
        expiresAt,
      })),
  );
}

/** Reviews as the API shows them, each with its documents (one query for the whole page). */
export async function withDocuments(ctx: AppContext, db: Db, records: ReviewRecord[]): Promise<ReviewView[]> {
  const documents = await documentsOfUploads(
    db,
    records.map((r) => r.uploadId),
  );
  return records.map((r) =>
    reviewView(
      ctx,
      r,
      documents.filter((d) => d.uploadId === r.uploadId),
    ),
  );
}
