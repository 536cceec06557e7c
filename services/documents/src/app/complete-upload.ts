import {
  failedPrecondition,
  inTransaction,
  notFound,
  writeWithEvents,
  type OutboxEvent,
  type Transaction,
} from '@eligo/runtime';
import type { ErrorId } from '@eligo/vocabulary';
import { isUuid, newReviewId, testModeDecision, type Decision } from '../domain';
import { documentsSubmittedEvent, reviewCompletedEvent } from '../events/publish';
import { documentsOfUploads, type DocumentRecord } from '../repository/documents.repository';
import {
  findReviewOfUpload,
  insertReviewQuery,
  type NewReview,
  type ReviewRecord,
} from '../repository/reviews.repository';
import {
  findLatestUpload,
  findUpload,
  markSubmittedQuery,
  type UploadRecord,
} from '../repository/uploads.repository';
import type { Db } from '../repository/db';
import type { AppContext } from './context';
import type { VerificationResponse } from './ports';

export interface CompleteUploadInput {
  verificationId: string;
  /** Empty: the verification's latest upload. */
  uploadId: string;
}

export interface CompletedUpload {
  /** pending (or what the verification moved on to since). */
  verification: VerificationResponse;
  reviewId: string;
}

// The spec's answer to a completeDocUpload that is not possible now: the step is not ready (400).
const notReady = (message: string) =>
  failedPrecondition(message, { errorIds: ['invalidStep' satisfies ErrorId] });

/**
 * completeDocUpload: queues the upload's review and moves the verification to pending. The review and its
 * events commit first; the verification is told afterwards, and since it also applies DocumentsSubmitted
 * (and ReviewCompleted) from Kafka idempotently, a crash in between loses nothing. A retry answers the same
 * review.
 */
export async function completeUpload(ctx: AppContext, input: CompleteUploadInput): Promise<CompletedUpload> {
  const upload = await uploadToComplete(ctx, input);
  const reviewId =
    upload.status === 'submitted'
      ? await submittedReviewId(ctx.db, upload.id)
      : await inTransaction(ctx.db, (trx) => submit(trx, ctx, upload.id));
  const verification = await ctx.verification.recordDocumentsSubmitted(upload.verificationId, reviewId);
  return { verification, reviewId };
}

async function uploadToComplete(ctx: AppContext, input: CompleteUploadInput): Promise<UploadRecord> {
  if (input.uploadId === '') {
    const latest = await findLatestUpload(ctx.db, input.verificationId);
    if (latest) return latest;
    // Nothing announced: the verification's own answer comes first (unknown id 404, another step, its limit).
    await ctx.verification.docUploadContext(input.verificationId, '');
    throw notReady('No documents were announced for this verification');
  }
  // Another verification's upload is not shown to exist.
  const upload = isUuid(input.uploadId) ? await findUpload(ctx.db, input.uploadId) : undefined;
  if (!upload || upload.verificationId !== input.verificationId) throw notFound('Upload not found');
  return upload;
}

async function submittedReviewId(db: Db, uploadId: string): Promise<string> {
  const review = await findReviewOfUpload(db, uploadId);
  if (!review) throw new Error(`submitted upload ${uploadId} has no review`);
  return review.id;
}

/** Queues the upload's review (and its events) in the caller's transaction; answers the review id. */
export async function submit(trx: Transaction, ctx: AppContext, uploadId: string): Promise<string> {
  const upload = (await findUpload(trx, uploadId, true))!;
  // A concurrent completion got the lock first.
  if (upload.status === 'submitted') return submittedReviewId(trx, upload.id);
  if (upload.status === 'cancelled')
    throw notReady('These documents were replaced or abandoned: announce the files again');
  const documents = await documentsOfUploads(trx, [upload.id]);
  const missing = documents.filter((d) => d.status !== 'UPLOADED');
  if (missing.length > 0) throw notReady(missingMessage(missing, documents.length));

  const now = ctx.now();
  const queued = reviewOf(ctx, upload, documents, now);
  // The upload submitted, its review and their events: one statement.
  await writeWithEvents(
    trx,
    ctx.schema,
    { submitted: markSubmittedQuery(trx, upload.id, now), review: insertReviewQuery(trx, queued.review) },
    queued.events,
  );
  return queued.review.id;
}

/** A review to queue, with its events: the row, DocumentsSubmitted and, in test mode, its decision. */
export interface QueuedReview {
  review: NewReview;
  events: OutboxEvent[];
}

/**
 * The review of a submitted upload whose documents are all uploaded, with its DocumentsSubmitted event (and,
 * in test mode, its decision), for the caller to write with the upload's change in its transaction: submit's
 * end, and form B's, whose upload is recorded already submitted with the documents it just stored.
 */
export function reviewOf(
  ctx: AppContext,
  upload: Pick<UploadRecord, 'id' | 'verificationId' | 'programId' | 'accountId' | 'testMode' | 'segment'>,
  documents: readonly Pick<DocumentRecord, 'id' | 'fileNameEnc'>[],
  now: Date,
): QueuedReview {
  const reviewId = newReviewId();
  // Test-mode programs are decided at once from the file names (docs/architecture.md, "Wire details").
  const decision = upload.testMode
    ? testModeDecision(documents.map((d) => ctx.fileNames.decrypt(d.fileNameEnc, d.id)))
    : undefined;
  const review: NewReview = {
    id: reviewId,
    uploadId: upload.id,
    verificationId: upload.verificationId,
    programId: upload.programId,
    accountId: upload.accountId,
    testMode: upload.testMode,
    segment: upload.segment,
    submittedAt: now,
    ...outcomeOf(decision, now),
  };
  const events = [
    documentsSubmittedEvent({
      verificationId: upload.verificationId,
      reviewId,
      documentIds: documents.map((d) => d.id),
      occurredAt: now,
      programId: upload.programId,
    }),
  ];
  if (decision)
    events.push(
      reviewCompletedEvent({
        verificationId: upload.verificationId,
        reviewId,
        approved: decision.approved,
        rejectionReasons: decision.rejectionReasons,
        occurredAt: now,
        programId: upload.programId,
        decidedBy: 'test-mode',
      }),
    );
  return { review, events };
}

type Outcome = Pick<ReviewRecord, 'status' | 'rejectionReasons' | 'decidedBy' | 'decidedAt'>;

/** A review starts pending, or already decided by the test-mode rules. */
function outcomeOf(decision: Decision | undefined, now: Date): Outcome {
  if (!decision) return { status: 'pending', rejectionReasons: [], decidedBy: null, decidedAt: null };
  return {
    status: decision.approved ? 'approved' : 'rejected',
    rejectionReasons: decision.rejectionReasons,
    decidedBy: 'test-mode',
    decidedAt: now,
  };
}

/** Which files hold the completion up, by their place in the manifest (never their names). */
function missingMessage(missing: DocumentRecord[], total: number): string {
  const list = missing.map((d) => `file ${d.position + 1} (${describe(d)})`).join(', ');
  return `Every file must be uploaded before completing; ${missing.length} of ${total} not yet: ${list}`;
}

function describe(d: DocumentRecord): string {
  if (d.status === 'REJECTED') return `refused: ${d.errors.join(', ')}`;
  return d.status === 'UPLOADING' ? 'still being sent' : 'not sent';
}
