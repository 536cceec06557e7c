import { failedPrecondition, inTransaction, invalidArgument, writeWithEvents } from '@eligo/runtime';
import { MAX_UPLOAD_FILES, type ErrorId } from '@eligo/vocabulary';
import { checkManifest, newDocumentId, newUploadId, newUploadToken } from '../domain';
import { insertDocumentsQuery, type NewDocument } from '../repository/documents.repository';
import { insertReviewQuery } from '../repository/reviews.repository';
import {
  cancelUploadsQuery,
  insertUploadQuery,
  lockVerificationUploads,
  uploadsBeforeSubmission,
} from '../repository/uploads.repository';
import { reviewOf } from './complete-upload';
import type { AppContext } from './context';
import { deleteReplacedObjects, refusedView, uploadRecordOf } from './create-upload';
import { FileIntake } from './file-intake';
import { deleteDocumentObjects, objectKeyOf } from './objects';
import type { DocUploadContext, VerificationResponse } from './ports';
import type { DocumentView } from './views';

/** Form B as the gateway streams it: the start, then each file's header followed by its bytes. */
export type UploadPart =
  | { start: { verificationId: string; docUploadToken: string } }
  | { file: { fileName: string; mimeType: string } }
  | { chunk: Buffer };

export type UploadFilesResult =
  | { outcome: 'COMPLETED'; verification: VerificationResponse }
  | { outcome: 'REFUSED' | 'REJECTED'; verification: VerificationResponse; documents: DocumentView[] };

const outOfOrder = (what: string) =>
  invalidArgument(`UploadFiles: ${what}`, { errorIds: ['invalidRequest' satisfies ErrorId] });
// The spec's answer to documents for a verification that is past its docUpload step (400).
const alreadySubmitted = () =>
  failedPrecondition('Documents were already submitted for this verification', {
    errorIds: ['invalidStep' satisfies ErrorId],
  });
const tooManyFiles = () =>
  invalidArgument(`At most ${MAX_UPLOAD_FILES} files can be uploaded`, {
    errorIds: ['invalidNumberOfFiles' satisfies ErrorId],
  });

/**
 * Form B in one call (docs/architecture.md, "Wire details"): the verification is asked first, so that a refusal
 * comes before any byte is read; each file is sniffed and sealed into the store as it streams (FileIntake);
 * once the last byte is in, all or nothing. A refused or rejected upload, a failed store and a cancelled call
 * keep nothing: what reached the store is deleted (and the orphan sweep deletes it after a crash). An
 * accepted one is recorded and its review queued in one transaction, as form A's completion does.
 */
export async function uploadFiles(
  ctx: AppContext,
  parts: AsyncIterable<UploadPart>,
): Promise<UploadFilesResult> {
  const iterator = parts[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || !('start' in first.value)) throw outOfOrder('the first message must be start');
  const { verificationId, docUploadToken } = first.value.start;
  const context = await ctx.verification.docUploadContext(verificationId, docUploadToken);

  const uploadId = newUploadId();
  const files: FileIntake[] = [];
  let decided: UploadFilesResult | Submitted;
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const part = next.value;
      if ('chunk' in part) {
        const current = files.at(-1);
        if (!current) throw outOfOrder('bytes before a file header');
        await current.write(part.chunk);
      } else if ('file' in part) {
        await files.at(-1)?.close();
        if (files.length === MAX_UPLOAD_FILES) throw tooManyFiles();
        const documentId = newDocumentId();
        const { fileName, mimeType } = part.file;
        files.push(
          new FileIntake(ctx.store, documentId, objectKeyOf(uploadId, documentId), fileName, mimeType),
        );
      } else throw outOfOrder('start sent twice');
    }
    await files.at(-1)?.close();
    decided = await decide(ctx, { uploadId, verificationId, context, files });
  } catch (err) {
    await discard(ctx, files);
    // Stops the caller's stream too when the failure was ours.
    await iterator.return?.();
    throw err;
  }
  if (!('reviewId' in decided)) return decided;
  // Committed: from here on the files are the review's, whatever happens. The verification also applies
  // DocumentsSubmitted from Kafka, so a failure to tell it now loses nothing.
  await deleteReplacedObjects(ctx, decided.replacedKeys);
  const verification = await ctx.verification.recordDocumentsSubmitted(verificationId, decided.reviewId);
  return { outcome: 'COMPLETED', verification };
}

/** An accepted upload, committed with its review. */
interface Submitted {
  reviewId: string;
  replacedKeys: string[];
}

interface Intake {
  uploadId: string;
  verificationId: string;
  context: DocUploadContext;
  files: FileIntake[];
}

async function decide(ctx: AppContext, intake: Intake): Promise<UploadFilesResult | Submitted> {
  const { context, files } = intake;
  const manifest = checkManifest(
    files.map((f) => ({ fileName: f.fileName, mimeType: f.declaredMime, fileSize: f.size })),
  );
  if (manifest.errorIds.length > 0) {
    await discard(ctx, files);
    return {
      outcome: 'REFUSED',
      verification: { ...context.verification, errorIds: manifest.errorIds },
      documents: manifest.files.map(refusedView),
    };
  }
  if (!files.every((f) => f.accepted)) {
    await discard(ctx, files);
    // The files to send again: the one whose bytes are not its type, and the others (nothing was kept).
    const documents = manifest.files.map((f, i): DocumentView => {
      const rejected = !files[i]!.accepted;
      return {
        ...refusedView(f),
        status: rejected ? 'REJECTED' : 'AWAITING_UPLOAD',
        errors: rejected ? ['UNSUPPORTED_TYPE'] : [],
      };
    });
    return { outcome: 'REJECTED', verification: context.verification, documents };
  }

  const now = ctx.now();
  const documents: NewDocument[] = manifest.files.map((file, position) => {
    const intakeFile = files[position]!;
    const id = intakeFile.documentId;
    return {
      id,
      uploadId: intake.uploadId,
      position,
      fileNameEnc: ctx.fileNames.encrypt(file.fileName, id),
      declaredMime: file.mimeType,
      fileSize: file.fileSize,
      // Form B hands out no upload URL: an expired token nobody knows keeps the column's uniqueness.
      tokenHash: newUploadToken().hash,
      tokenExpiresAt: now,
      objectKey: intakeFile.objectKey,
      uploaded: { detectedMime: verdictMime(intakeFile), uploadedAt: now },
    };
  });
  return inTransaction(ctx.db, async (trx) => {
    // Two uploads that both passed the verification's check at start: the first to commit queues the review,
    // the other is too late (form A's completion is refused the same way, its upload replaced).
    await lockVerificationUploads(trx, intake.verificationId);
    const before = await uploadsBeforeSubmission(trx, intake.verificationId);
    if (before.live) throw alreadySubmitted();
    // Recorded submitted with the documents just stored, the open upload it replaces cancelled, its review
    // queued, and their events: one statement (nothing to read back before the review).
    const upload = uploadRecordOf({ ...intake, id: intake.uploadId, now });
    const queued = reviewOf(ctx, upload, documents, now);
    const writes = {
      ...(before.openIds.length > 0 && { replaced: cancelUploadsQuery(trx, before.openIds, now) }),
      upload: insertUploadQuery(trx, upload, now),
      // Not "documents": a WITH part of that name would hide the table from the statement's other parts.
      files: insertDocumentsQuery(trx, documents),
      review: insertReviewQuery(trx, queued.review),
    };
    await writeWithEvents(trx, ctx.schema, writes, queued.events);
    return { reviewId: queued.review.id, replacedKeys: before.openKeys };
  });
}

function verdictMime(file: FileIntake): string {
  if (file.verdict?.accepted !== true) throw new Error('an accepted file without its sniffed type');
  return file.verdict.detectedMimeType;
}

/** Stops any write in flight and deletes what reached the store; best effort (the orphan sweep follows up). */
async function discard(ctx: AppContext, files: readonly FileIntake[]): Promise<void> {
  await Promise.all(files.map((f) => f.abort()));
  const stored = files.filter((f) => f.touchedStore).map((f) => f.objectKey);
  await deleteDocumentObjects(ctx.store, stored).catch(() => undefined);
}
