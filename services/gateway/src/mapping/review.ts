import type { documentsV1 } from '@eligo/proto';
import { present } from './program';

type Review = documentsV1.Review;

/** A file of a review as staff see it: its sanitised name, never a storage key nor an upload token. */
export interface ReviewDocumentJson {
  documentId: string;
  fileName: string;
  status: string;
  mimeType: string;
  fileSize: number;
  errors: string[];
}

/** One queued set of documents (admin API). Times are ISO 8601 strings; null while not (yet) set. */
export interface ReviewJson {
  reviewId: string;
  verificationId: string;
  programId: string;
  accountId: string;
  status: string;
  testMode: boolean;
  documents: ReviewDocumentJson[];
  rejectionReasons: string[];
  submittedAt: string | null;
  decidedAt: string | null;
  decidedBy: string | null;
  filesDeletedAt: string | null;
}

export interface ReviewFileJson {
  documentId: string;
  url: string;
  expiresAt: string | null;
}

/** GET /reviews/{reviewId}: the review with a short-lived link to each file (none once retention ran). */
export interface ReviewDetailJson extends ReviewJson {
  files: ReviewFileJson[];
}

export interface ReviewPageJson {
  reviews: ReviewJson[];
  /** null on the last page. */
  nextCursor: string | null;
}

/** The review queue's states (ListReviewsRequest.status; empty = all). */
export const reviewStatuses = ['pending', 'approved', 'rejected'] as const;

const iso = (date: Date | undefined): string | null => date?.toISOString() ?? null;

export function reviewToJson(r: Review): ReviewJson {
  return {
    reviewId: r.reviewId,
    verificationId: r.verificationId,
    programId: r.programId,
    accountId: r.accountId,
    status: r.status,
    testMode: r.testMode,
    documents: r.documents.map((d) => ({
      documentId: d.documentId,
      fileName: d.fileName,
      status: d.status,
      mimeType: d.mimeType,
      fileSize: d.fileSize,
      errors: [...d.errors],
    })),
    rejectionReasons: [...r.rejectionReasons],
    submittedAt: iso(r.submittedAt),
    decidedAt: iso(r.decidedAt),
    decidedBy: r.decidedBy || null,
    filesDeletedAt: iso(r.filesDeletedAt),
  };
}

export function reviewDetailToJson(reply: documentsV1.GetReviewResponse): ReviewDetailJson {
  return {
    ...reviewToJson(present(reply.review, 'review')),
    files: reply.files.map((f) => ({ documentId: f.documentId, url: f.url, expiresAt: iso(f.expiresAt) })),
  };
}

export function reviewPageToJson(reply: documentsV1.ListReviewsResponse): ReviewPageJson {
  return { reviews: reply.reviews.map(reviewToJson), nextCursor: reply.nextCursor || null };
}
