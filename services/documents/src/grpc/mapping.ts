import type { documentsV1, verificationVerificationV1 } from '@eligo/proto';
import type { FileUploadTarget } from '../app/begin-file-upload';
import type { CompletedUpload } from '../app/complete-upload';
import type { CreatedUpload, CreateUploadInput } from '../app/create-upload';
import type { VerificationResponse } from '../app/ports';
import type { ReviewFilePart } from '../app/read-review-file';
import type { ReviewPage, ReviewWithFiles } from '../app/reviews';
import type { DocumentView, ReviewView } from '../app/views';

/**
 * Protobuf <-> the documents service's own types (docs/architecture.md, "The service template"): the one
 * place that knows both, so use cases never name a generated type.
 */

export const createUploadInputFromProto = (req: documentsV1.CreateUploadRequest): CreateUploadInput => ({
  verificationId: req.verificationId,
  docUploadToken: req.docUploadToken,
  files: req.files.map((f) => ({ fileName: f.fileName, mimeType: f.mimeType, fileSize: f.fileSize })),
});

/** Handed on as the verification service answered it (the lists copied, every other field as it is). */
export const verificationToProto = (
  v: VerificationResponse,
): verificationVerificationV1.VerificationResponse => ({
  ...v,
  errorIds: [...v.errorIds],
  availableStatuses: [...v.availableStatuses],
  rejectionReasons: [...v.rejectionReasons],
});

export const documentToProto = (d: DocumentView): documentsV1.Document => ({
  documentId: d.documentId,
  status: d.status,
  mimeType: d.mimeType,
  fileSize: d.fileSize,
  uploadToken: d.uploadToken,
  errors: [...d.errors],
  fileName: d.fileName,
});

/** Absent times are unset fields, and no decider yet is the empty string (the contract's "not set"). */
export const reviewToProto = (r: ReviewView): documentsV1.Review => ({
  reviewId: r.reviewId,
  verificationId: r.verificationId,
  programId: r.programId,
  accountId: r.accountId,
  status: r.status,
  documents: r.documents.map(documentToProto),
  rejectionReasons: [...r.rejectionReasons],
  testMode: r.testMode,
  submittedAt: r.submittedAt,
  decidedAt: r.decidedAt ?? undefined,
  decidedBy: r.decidedBy ?? '',
  filesDeletedAt: r.filesDeletedAt ?? undefined,
  segment: r.segment ?? '',
  claimedBy: r.claimedBy ?? '',
  claimExpiresAt: r.claimExpiresAt ?? undefined,
});

export const createUploadResponseToProto = (u: CreatedUpload): documentsV1.CreateUploadResponse => ({
  verification: verificationToProto(u.verification),
  uploadId: u.uploadId,
  documents: u.documents.map(documentToProto),
});

export const beginFileUploadResponseToProto = (t: FileUploadTarget): documentsV1.BeginFileUploadResponse => ({
  documentId: t.documentId,
  putUrl: t.putUrl,
  fileSize: t.fileSize,
  mimeType: t.mimeType,
});

export const completeUploadResponseToProto = (c: CompletedUpload): documentsV1.CompleteUploadResponse => ({
  verification: verificationToProto(c.verification),
  reviewId: c.reviewId,
});

export const listReviewsResponseToProto = (page: ReviewPage): documentsV1.ListReviewsResponse => ({
  reviews: page.reviews.map(reviewToProto),
  nextCursor: page.nextCursor,
});

export const getReviewResponseToProto = (r: ReviewWithFiles): documentsV1.GetReviewResponse => ({
  review: reviewToProto(r.review),
  files: r.files.map((f) => ({ documentId: f.documentId, url: f.url, expiresAt: f.expiresAt })),
});

export const claimReviewResponseToProto = (r: ReviewWithFiles): documentsV1.ClaimReviewResponse =>
  getReviewResponseToProto(r);

export const reviewFilePartToProto = (part: ReviewFilePart): documentsV1.ReadReviewFileResponse =>
  'file' in part
    ? { part: { $case: 'file', file: { ...part.file } } }
    : { part: { $case: 'chunk', chunk: part.chunk } };
