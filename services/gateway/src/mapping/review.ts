import type { documentsV1 } from '@eligo/proto';
import { listedValue } from '../endpoints/admin-common';
import {
  Review,
  type ReviewDetailJson,
  type ReviewJson,
  type ReviewPageJson,
} from '../endpoints/admin-review-schemas';
import { DocumentStatus } from '../endpoints/doc-upload-schemas';
import { present } from './program';

const iso = (date: Date | undefined): string | null => date?.toISOString() ?? null;

export function reviewToJson(r: documentsV1.Review): ReviewJson {
  return {
    reviewId: r.reviewId,
    verificationId: r.verificationId,
    programId: r.programId,
    accountId: r.accountId,
    status: listedValue(Review.shape.status, r.status, 'review status'),
    testMode: r.testMode,
    documents: r.documents.map((d) => ({
      documentId: d.documentId,
      fileName: d.fileName,
      status: listedValue(DocumentStatus, d.status, 'document status'),
      mimeType: d.mimeType,
      fileSize: d.fileSize,
      errors: [...d.errors],
    })),
    rejectionReasons: [...r.rejectionReasons],
    submittedAt: iso(r.submittedAt),
    decidedAt: iso(r.decidedAt),
    decidedBy: r.decidedBy || null,
    filesDeletedAt: iso(r.filesDeletedAt),
    // Empty: submitted before the documents service recorded segments.
    segment: r.segment === '' ? null : listedValue(Review.shape.segment, r.segment, 'segment'),
    claimedBy: r.claimedBy || null,
    claimExpiresAt: r.claimedBy ? iso(r.claimExpiresAt) : null,
  };
}

/** Where the admin API serves a review's file (routes/admin/reviews.ts, adminGetReviewFile). */
export const reviewFileUrl = (publicBaseUrl: string, reviewId: string, documentId: string): string =>
  `${publicBaseUrl}/rest/admin/v1/reviews/${encodeURIComponent(reviewId)}/files/${encodeURIComponent(documentId)}`;

/**
 * The review with a link to each stored file: the gateway's own route, never the documents service's link
 * (its files are read through ReadReviewFile, with the caller's credentials), so the links do not expire.
 */
export function reviewDetailToJson(
  reply: documentsV1.GetReviewResponse | documentsV1.ClaimReviewResponse,
  publicBaseUrl: string,
): ReviewDetailJson {
  const review = present(reply.review, 'review');
  return {
    ...reviewToJson(review),
    files: reply.files.map((f) => ({
      documentId: f.documentId,
      url: reviewFileUrl(publicBaseUrl, review.reviewId, f.documentId),
      expiresAt: null,
    })),
  };
}

export function reviewPageToJson(reply: documentsV1.ListReviewsResponse): ReviewPageJson {
  return { reviews: reply.reviews.map(reviewToJson), nextCursor: reply.nextCursor || null };
}
