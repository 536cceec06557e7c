import {
  asOneStatement,
  decodeGrpcError,
  failedPrecondition,
  inTransaction,
  isDomainError,
  resourceExhausted,
  type Transaction,
} from '@eligo/runtime';
import {
  findVerification,
  findVerificationVersion,
  type VerificationRecord,
} from '../repository/verifications.repository';
import { isFinal } from '../domain';
import { isVerificationId } from '../domain/ids';
import type { AppContext } from './context';
import { loadLocked, noVerification, type Loaded } from './load';
import { succeed } from './person-limit';
import type { Program } from '../domain/program';
import { isTestMode, requireProgram } from './programs';
import type { VerificationAnswer } from '../domain/answer';
import { applyChange } from './transition';

/**
 * The documents side of the flow. The documents service asks before it takes files (docUploadContext) and
 * tells when they are queued for review (recordDocumentsSubmitted); the review's decision arrives as its
 * ReviewCompleted event. Submissions also arrive as DocumentsSubmitted events, so that a crash between the
 * documents service's commit and its call loses nothing: every change is matched on the review id and
 * applied once, whichever way comes first.
 */

const DEFAULT_MAX_REJECTIONS = 3;

/** Rejected reviews a program allows; the rejection that reaches it ends the verification. 0 counts as 1. */
export function maxRejections(program: Program): number {
  return Math.max(program.documentReview?.maxRejections ?? DEFAULT_MAX_REJECTIONS, 1);
}

const reviewLimitReached = () =>
  resourceExhausted('The document review limit of the program has been reached', {
    errorIds: ['docReviewLimitExceeded'],
  });

/** Whether files may be uploaded to this verification now, through this form (token) of its submissionUrl. */
function assertUploadAllowed(ctx: AppContext, record: VerificationRecord, token: string): void {
  // The limit first: every form of the ended verification, old attempts' included, answers it.
  if (record.currentStep === 'error' && record.errorIds.includes('docReviewLimitExceeded'))
    throw reviewLimitReached();
  if (!tokenFits(ctx, record, token)) throw noVerification(record.id);
  if (record.currentStep !== 'docUpload')
    throw failedPrecondition(`The verification is on step ${record.currentStep}, not docUpload`, {
      errorIds: ['invalidStep'],
    });
}

/** An empty token (a call without the form's) fits; any other must be this attempt's. */
const tokenFits = (ctx: AppContext, record: VerificationRecord, token: string): boolean =>
  !token || token === ctx.docUploadToken(record.id, record.docUploadRejectionCount);

/** Found past its time: no files are taken. The sweep (or the next locked read) records the expiry. */
const expiredOnTheWay = () =>
  failedPrecondition('The verification has expired', { errorIds: ['expiredVerification'] });

export interface DocUploadContext {
  verification: VerificationAnswer;
  programId: string;
  accountId: string;
  testMode: boolean;
  rejectionCount: number;
  maxRejections: number;
}

export async function docUploadContext(
  ctx: AppContext,
  input: { verificationId: string; docUploadToken: string },
): Promise<DocUploadContext> {
  // An unlocked read: the answer only lets the documents service start taking files, and everything it says is
  // checked again under the row's lock when the files are recorded (recordDocumentsSubmitted). Locking here
  // waited behind whoever held the row, and wrote the row to lock it, for every upload.
  const record = isVerificationId(input.verificationId)
    ? await findVerification(ctx.db, input.verificationId)
    : undefined;
  if (!record) throw noVerification(input.verificationId);
  // Found past its time: no files (the sweep, or the next locked read, records the expiry).
  if (!isFinal(record.currentStep) && record.expiresAt <= ctx.now()) throw expiredOnTheWay();
  assertUploadAllowed(ctx, record, input.docUploadToken);
  const program = await requireProgram(ctx, record.programId);
  return {
    verification: record.lastResponse,
    programId: record.programId,
    accountId: record.accountId,
    testMode: isTestMode(program),
    rejectionCount: record.docUploadRejectionCount,
    maxRejections: maxRejections(program),
  };
}

export async function recordDocumentsSubmitted(
  ctx: AppContext,
  input: { verificationId: string; docUploadToken: string; reviewId: string },
): Promise<VerificationAnswer> {
  // The common case (on docUpload, within its time, this review not applied yet) is written by one statement
  // on the row as read, if it is still that version (as a submission is, submit.ts); anything else, or a row
  // that changed since the read, goes the locked way below, which answers every other case.
  const unlocked = await pendingAsRead(ctx, input);
  const answer = unlocked
    ? unlocked.value
    : await inTransaction(ctx.db, async (trx) => {
        const loaded = await loadLocked(trx, ctx, input.verificationId);
        // Applied already (by this call's first try, or by the event): the state as it now is.
        if (loaded.record.currentReviewId === input.reviewId) return loaded.record.lastResponse;
        if (loaded.settled) throw expiredOnTheWay();
        assertUploadAllowed(ctx, loaded.record, input.docUploadToken);
        return toPending(trx, ctx, loaded, input.reviewId);
      });
  // Committed: the DocumentsSubmitted event that follows has nothing left to do (events/consumers.ts).
  ctx.appliedSubmissions.noteApplied(input.verificationId, input.reviewId);
  return answer;
}

/** recordDocumentsSubmitted's one statement, or undefined when the locked transaction must decide. */
async function pendingAsRead(
  ctx: AppContext,
  input: { verificationId: string; docUploadToken: string; reviewId: string },
): Promise<{ value: VerificationAnswer } | undefined> {
  const record = isVerificationId(input.verificationId)
    ? await findVerificationVersion(ctx.db, input.verificationId)
    : undefined;
  if (!record || record.currentReviewId === input.reviewId || record.currentStep !== 'docUpload')
    return undefined;
  if (record.expiresAt <= ctx.now() || !tokenFits(ctx, record, input.docUploadToken)) return undefined;
  const program = await requireProgram(ctx, record.programId);
  return asOneStatement(ctx.db, (trx) => toPending(trx, ctx, { record, program }, input.reviewId));
}

/** DocumentsSubmitted, in the inbox transaction: the same change as the call, when the call did not come. */
export async function onDocumentsSubmitted(
  trx: Transaction,
  ctx: AppContext,
  event: { verificationId: string; reviewId: string },
): Promise<void> {
  // Most often the documents service's call applied it already: seen without taking the row's lock (which
  // would wait for whatever holds it, and writes the row to lock it). One past its time goes the locked way,
  // which expires it.
  const seen = isVerificationId(event.verificationId)
    ? await findVerification(trx, event.verificationId)
    : undefined;
  if (!seen) return;
  if (seen.currentReviewId === event.reviewId && (isFinal(seen.currentStep) || seen.expiresAt > ctx.now()))
    return;
  const loaded = await loadIfKnown(trx, ctx, event.verificationId);
  if (!loaded || loaded.settled) return;
  if (loaded.record.currentReviewId === event.reviewId || loaded.record.currentStep !== 'docUpload') return;
  await toPending(trx, ctx, loaded, event.reviewId);
}

/** A documents review's decision (the ReviewCompleted event, as events/consumers.ts hands it on). */
export interface ReviewDecision {
  verificationId: string;
  reviewId: string;
  approved: boolean;
  rejectionReasons: readonly string[];
}

/**
 * ReviewCompleted, in the inbox transaction: approved -> success with the reward (error past the person
 * limit); rejected -> docUpload with the reasons, or error (docReviewLimitExceeded) once the program's
 * rejections are used up. A decision on a review the verification no longer waits for (expired, or applied
 * already) changes nothing.
 */
export async function onReviewCompleted(
  trx: Transaction,
  ctx: AppContext,
  event: ReviewDecision,
): Promise<void> {
  const loaded = await loadIfKnown(trx, ctx, event.verificationId);
  if (!loaded || loaded.settled) return;
  const { record, program } = loaded;
  if (record.currentReviewId !== event.reviewId || record.currentStep !== 'pending') return;
  const cause = { trigger: 'reviewCompleted' } as const;
  if (event.approved) {
    await approve(trx, ctx, loaded);
    return;
  }
  const count = record.docUploadRejectionCount + 1;
  const fields = { docUploadRejectionCount: count, docUploadRejectionReasons: [...event.rejectionReasons] };
  if (count >= maxRejections(program)) {
    await applyChange(trx, ctx, record, program, {
      cause,
      step: 'error',
      errorIds: ['docReviewLimitExceeded'],
      systemErrorMessage: `The documents were rejected ${count} times, the most the program allows`,
      fields,
    });
    return;
  }
  await applyChange(trx, ctx, record, program, { cause, step: 'docUpload', fields });
}

/**
 * An approval is a success like any other: the person limit applies (the person may have succeeded on another
 * verification since this one reached docUpload), then the reward code is claimed.
 */
async function approve(trx: Transaction, ctx: AppContext, { record, program }: Loaded): Promise<void> {
  const cause = { trigger: 'reviewCompleted' } as const;
  try {
    await succeed(trx, ctx, record, program, { cause, verificationMethod: 'MANUAL' });
  } catch (err) {
    // An empty pool will not refill by retrying the event: the verification ends as a submission would.
    // succeed() writes nothing before it claims the code, so the transaction is still whole here.
    if (!decodeGrpcError(err).errorIds.includes('noRemainingRewardCodes')) throw err;
    await applyChange(trx, ctx, record, program, {
      cause,
      step: 'error',
      errorIds: ['noRemainingRewardCodes'],
      systemErrorMessage: 'The program has no reward codes left',
    });
  }
}

function toPending(
  trx: Transaction,
  ctx: AppContext,
  { record, program }: Loaded,
  reviewId: string,
): Promise<VerificationAnswer> {
  return applyChange(trx, ctx, record, program, {
    cause: { trigger: 'uploadDocuments', requestId: reviewId },
    step: 'pending',
    fields: { currentReviewId: reviewId },
  });
}

/** An event about a verification this service does not have (another environment's) is ignored. */
async function loadIfKnown(trx: Transaction, ctx: AppContext, id: string): Promise<Loaded | undefined> {
  try {
    return await loadLocked(trx, ctx, id);
  } catch (err) {
    if (isDomainError(err) && err.errorIds.includes('noVerification')) return undefined;
    throw err;
  }
}
