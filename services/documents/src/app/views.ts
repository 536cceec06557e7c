import {
  liveClaim,
  type DecidedBy,
  type DocumentError,
  type DocumentStatus,
  type ReviewStatus,
} from '../domain';
import type { DocumentRecord } from '../repository/documents.repository';
import type { ReviewRecord } from '../repository/reviews.repository';
import type { AppContext } from './context';

/**
 * What the use cases answer about documents and reviews: the service's own shapes, turned into protobuf only
 * by grpc/mapping.ts (docs/architecture.md, "The service template").
 */

/** One file of an upload as clients and staff see it: never its storage key, never a token's hash. */
export interface DocumentView {
  /** Empty for a file of a refused manifest: nothing was stored. */
  documentId: string;
  status: DocumentStatus;
  mimeType: string;
  fileSize: number;
  /** Empty unless the file still awaits its bytes and the token is known to the caller. */
  uploadToken: string;
  errors: DocumentError[];
  /** Sanitised, decrypted: for staff. */
  fileName: string;
}

export interface ReviewView {
  reviewId: string;
  verificationId: string;
  programId: string;
  accountId: string;
  status: ReviewStatus;
  documents: DocumentView[];
  rejectionReasons: string[];
  testMode: boolean;
  submittedAt: Date;
  decidedAt: Date | null;
  decidedBy: DecidedBy | null;
  filesDeletedAt: Date | null;
  /** Null for reviews queued before segments were recorded. */
  segment: string | null;
  /** The live claim only: null when nobody holds the review (a lease that ran out is no claim). */
  claimedBy: string | null;
  claimExpiresAt: Date | null;
}

/** A stored document as the API shows it; the token only while it can still be used to send the bytes. */
export function documentView(ctx: AppContext, d: DocumentRecord, token = ''): DocumentView {
  const usable = d.status === 'AWAITING_UPLOAD' && d.tokenExpiresAt > ctx.now();
  return {
    documentId: d.id,
    status: d.status,
    mimeType: d.declaredMime,
    fileSize: d.fileSize,
    uploadToken: usable ? token : '',
    errors: d.errors,
    fileName: ctx.fileNames.decrypt(d.fileNameEnc, d.id),
  };
}

export function reviewView(ctx: AppContext, r: ReviewRecord, documents: DocumentRecord[]): ReviewView {
  const claim = liveClaim(r, ctx.now());
  return {
    reviewId: r.id,
    verificationId: r.verificationId,
    programId: r.programId,
    accountId: r.accountId,
    status: r.status,
    documents: documents.map((d) => documentView(ctx, d)),
    rejectionReasons: r.rejectionReasons,
    testMode: r.testMode,
    submittedAt: r.submittedAt,
    decidedAt: r.decidedAt,
    decidedBy: r.decidedBy,
    filesDeletedAt: r.filesDeletedAt,
    segment: r.segment,
    claimedBy: claim?.holder ?? null,
    claimExpiresAt: claim?.expiresAt ?? null,
  };
}
