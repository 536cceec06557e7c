import type { documentsV1 } from '@eligo/proto';
import type { DocumentRecord } from '../repository/documents.repository';
import type { ReviewRecord } from '../repository/reviews.repository';
import type { AppContext } from './context';

/** A stored document as the API shows it; the token only while it can still be used to send the bytes. */
export function documentView(ctx: AppContext, d: DocumentRecord, token = ''): documentsV1.Document {
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

export function reviewView(
  ctx: AppContext,
  r: ReviewRecord,
  documents: DocumentRecord[],
): documentsV1.Review {
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
    decidedAt: r.decidedAt ?? undefined,
    decidedBy: r.decidedBy ?? '',
    filesDeletedAt: r.filesDeletedAt ?? undefined,
  };
}
