import type { documentsV1, verificationVerificationV1 } from '@eligo/proto';
import type { Logger } from 'pino';
import type { DocumentsClient } from '../clients/documents.client';
import { present } from '../mapping/program';
import type { SpooledFile } from './multipart-spool';
import { storeFailed } from './put-file';

type Document = documentsV1.Document;
type VerificationResponse = verificationVerificationV1.VerificationResponse;

export interface StoreSpooledFilesDeps {
  documents: DocumentsClient;
  putFile: (url: string, path: string, size: number, contentType: string) => Promise<void>;
  logger: Logger;
}

/** How a form B upload ended; the route turns each into its answer. */
export type FormBOutcome =
  /** CreateUpload refused a file (size, type): nothing was stored. */
  | { kind: 'refused'; verification: VerificationResponse; documents: Document[] }
  /** A file's bytes were refused once stored (sniffed type); the upload was cancelled. */
  | { kind: 'rejected'; verification: VerificationResponse; documents: Document[] }
  /** Every file stored and accepted: the review is queued. */
  | { kind: 'completed'; verification: VerificationResponse };

export interface FormBRequest {
  verificationId: string;
  docUploadToken: string;
  files: readonly SpooledFile[];
}

/**
 * Form B after the body was read: the same calls a form A client makes, done by the gateway with the spooled
 * files. CreateUpload with the manifest; then per document BeginFileUpload, the bytes to the store's URL,
 * FinishFileUpload; then CompleteUpload. An upload that does not get that far is cancelled, so that no
 * half-stored attempt is left behind.
 */
export async function storeSpooledFiles(
  deps: StoreSpooledFilesDeps,
  req: FormBRequest,
): Promise<FormBOutcome> {
  const { documents } = deps;
  const created = await documents.createUpload({
    verificationId: req.verificationId,
    docUploadToken: req.docUploadToken,
    files: req.files.map((f) => ({ fileName: f.fileName, mimeType: f.mimeType, fileSize: f.size })),
  });
  const verification = present(created.verification, 'verification');
  if (verification.errorIds.length > 0) {
    return { kind: 'refused', verification, documents: created.documents };
  }
  const stored = [...created.documents];
  try {
    if (stored.length !== req.files.length)
      throw new Error(`CreateUpload answered ${stored.length} documents for ${req.files.length} files`);
    for (const [i, file] of req.files.entries()) {
      const document = await storeOne(deps, stored[i]!, file);
      stored[i] = document;
      if (document.status === 'REJECTED') {
        await cancelQuietly(deps, created.uploadId);
        return { kind: 'rejected', verification, documents: stored };
      }
    }
  } catch (err) {
    await cancelQuietly(deps, created.uploadId);
    throw err;
  }
  const completed = await documents.completeUpload({
    verificationId: req.verificationId,
    uploadId: created.uploadId,
  });
  return { kind: 'completed', verification: present(completed.verification, 'verification') };
}

/** One document: claim its token, send the bytes, let the service check them. Throws 502 if not stored. */
async function storeOne(
  deps: StoreSpooledFilesDeps,
  document: Document,
  file: SpooledFile,
): Promise<Document> {
  const { documents, logger } = deps;
  const uploadToken = document.uploadToken;
  const target = await documents.beginFileUpload({ uploadToken });
  let sent = true;
  try {
    await deps.putFile(target.putUrl, file.path, file.size, target.mimeType || file.mimeType);
  } catch (err) {
    sent = false;
    logger.warn({ err, documentId: document.documentId }, 'object store did not take a document');
  }
  // Also after a failed send: the service then resets the document instead of leaving it claimed.
  const finished = present((await documents.finishFileUpload({ uploadToken })).document, 'document');
  if (!sent || (finished.status !== 'UPLOADED' && finished.status !== 'REJECTED')) throw storeFailed();
  return finished;
}

/** Best effort: the answer is decided already; a cancel that fails is logged, not shown to the client. */
async function cancelQuietly(deps: StoreSpooledFilesDeps, uploadId: string): Promise<void> {
  try {
    await deps.documents.cancelUpload({ uploadId });
  } catch (err) {
    deps.logger.warn({ err }, 'could not cancel an abandoned document upload');
  }
}
