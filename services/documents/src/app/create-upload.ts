import {
  checkManifest,
  newDocumentId,
  newUploadId,
  newUploadToken,
  type CheckedFile,
  type ManifestFile,
} from '../domain';
import { insertDocuments, objectKeysOfUploads, type NewDocument } from '../repository/documents.repository';
import {
  cancelOpenUploads,
  insertUpload,
  lockVerificationUploads,
  type NewUpload,
} from '../repository/uploads.repository';
import type { Knex } from '@eligo/runtime';
import type { AppContext } from './context';
import { deleteDocumentObjects, objectKeyOf } from './objects';
import type { DocUploadContext, VerificationResponse } from './ports';
import type { DocumentView } from './views';

export interface CreateUploadInput {
  verificationId: string;
  docUploadToken: string;
  files: ManifestFile[];
}

export interface CreatedUpload {
  /** The docUpload response; with the errorIds when a file was refused. */
  verification: VerificationResponse;
  /** Empty when refused. */
  uploadId: string;
  /** One per manifest entry, in the same order; each with its upload token when accepted. */
  documents: DocumentView[];
}

/**
 * Form A's docUpload (and form B's first half): all or nothing. A refused manifest stores nothing and answers
 * the verification's docUpload response with the errorIds; an accepted one replaces any earlier open upload
 * of the verification and hands out one upload token per file.
 */
export async function createUpload(ctx: AppContext, input: CreateUploadInput): Promise<CreatedUpload> {
  // The verification decides whether files may be sent at all (its step, its token, its review limit).
  const context = await ctx.verification.docUploadContext(input.verificationId, input.docUploadToken);
  const manifest = checkManifest(input.files);
  if (manifest.errorIds.length > 0)
    return {
      verification: { ...context.verification, errorIds: manifest.errorIds },
      uploadId: '',
      documents: manifest.files.map(refusedView),
    };

  const now = ctx.now();
  const uploadId = newUploadId();
  const tokens = manifest.files.map(() => newUploadToken());
  const documents: NewDocument[] = manifest.files.map((file, position) => {
    const id = newDocumentId();
    return {
      id,
      uploadId,
      position,
      fileNameEnc: ctx.fileNames.encrypt(file.fileName, id),
      declaredMime: file.mimeType,
      fileSize: file.fileSize,
      tokenHash: tokens[position]!.hash,
      tokenExpiresAt: new Date(now.getTime() + ctx.uploadUrlTtlMs),
      objectKey: objectKeyOf(uploadId, id),
    };
  });
  const { replacedKeys } = await ctx.db.transaction(async (trx) => {
    await lockVerificationUploads(trx, input.verificationId);
    return recordUpload(trx, { id: uploadId, verificationId: input.verificationId, context, now, documents });
  });
  await deleteReplacedObjects(ctx, replacedKeys);

  return {
    verification: context.verification,
    uploadId,
    documents: documents.map((d, i) => ({
      documentId: d.id,
      status: 'AWAITING_UPLOAD',
      mimeType: d.declaredMime,
      fileSize: d.fileSize,
      uploadToken: tokens[i]!.token,
      errors: [],
      fileName: manifest.files[i]!.fileName,
    })),
  };
}

/**
 * A new open upload of the verification with its documents (form A: their files come later), in the caller's
 * transaction, which holds the verification's upload lock (lockVerificationUploads). Answers the upload and
 * the object keys of the open uploads it replaced.
 */
async function recordUpload(
  trx: Knex.Transaction,
  upload: {
    id: string;
    verificationId: string;
    context: DocUploadContext;
    now: Date;
    documents: readonly NewDocument[];
  },
): Promise<{ upload: NewUpload; replacedKeys: string[] }> {
  const replaced = await cancelOpenUploads(trx, upload.verificationId, upload.now);
  const record = uploadRecordOf(upload);
  await insertUpload(trx, record);
  await insertDocuments(trx, upload.documents);
  return { upload: record, replacedKeys: await objectKeysOfUploads(trx, replaced) };
}

/** The upload's row, from the verification's docUpload context. */
export function uploadRecordOf(upload: {
  id: string;
  verificationId: string;
  context: DocUploadContext;
  now: Date;
}): NewUpload {
  const { context } = upload;
  return {
    id: upload.id,
    verificationId: upload.verificationId,
    programId: context.programId,
    accountId: context.accountId,
    testMode: context.testMode,
    createdAt: upload.now,
    // For the review queue's segment filter: the verification's segment, as its docUpload context says.
    segment: context.verification.segment || null,
  };
}

/**
 * After the commit: the store is not transactional. A failure here (or a PUT still in flight) is caught up
 * by the retention job, which deletes a cancelled upload's objects again once its PUT URLs have expired.
 */
export async function deleteReplacedObjects(ctx: AppContext, keys: readonly string[]): Promise<void> {
  await deleteDocumentObjects(ctx.store, keys).catch(() => undefined);
}

/** A file of a refused manifest: nothing was stored, so it has no id and no token, and no file awaits bytes. */
export function refusedView(file: CheckedFile): DocumentView {
  return {
    documentId: '',
    status: 'REJECTED',
    mimeType: file.mimeType,
    fileSize: file.fileSize,
    uploadToken: '',
    errors: file.errors,
    fileName: file.fileName,
  };
}
