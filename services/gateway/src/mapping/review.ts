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
