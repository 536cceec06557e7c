import type { Knex, OutboxEvent } from '@eligo/runtime';
import { internal } from '@eligo/runtime';
import { isStep, isTransition, type Trigger } from '../domain';
import * as events from '../events/publish';
import { writeWithStep, writeWithStepIf } from '../repository/steps.repository';
import {
  updateVerificationIfQuery,
  updateVerificationQuery,
  type VerificationRecord,
} from '../repository/verifications.repository';
import type { AppContext } from './context';
import type { Program } from '../domain/program';
import { isTestMode } from './programs';
import type { VerificationAnswer } from '../domain/answer';
import { buildResponse } from './response';

/**
 * A change decided on the verification as read without a lock, to be written on the pool only if the row is
 * still that version (its xmin): one statement instead of BEGIN, a locked read, the change and COMMIT. It
 * takes one write: a change that needs more (the person limit's locks, a code mailed with the step, a used
 * subject token, metadata events) must run in the locked transaction (lockedOnly).
 */
export class UnlockedWriter {
  private used = false;
  constructor(
    readonly pool: Knex,
    readonly version: string,
  ) {}

  /** The pool for the one write; a second would apply to a version this writer did not read. */
  take(): Knex {
    if (this.used) throw internal('An unlocked change writes once');
    this.used = true;
    return this.pool;
  }
}

/**
 * Where a change is written: the transaction holding the verification's row lock (loadLocked), or an
 * UnlockedWriter.
 */
export type Writer = Knex.Transaction | UnlockedWriter;

/**
 * The unlocked change could not be written (the row changed since it was read) or needs the row lock: the
 * caller runs the same submission in the locked transaction. Thrown before anything is written.
 */
export class NeedsLock extends Error {
  constructor(why: string) {
    super(`the change needs the row lock: ${why}`);
  }
}

/** The writer's transaction; NeedsLock for an UnlockedWriter (`why`: what needs the lock). */
export function lockedOnly(writer: Writer, why: string): Knex.Transaction {
  if (writer instanceof UnlockedWriter) throw new NeedsLock(why);
  return writer;
}

/** What made a change: the trigger (checked against the state machine) and the call's request id. */
export interface Cause {
  trigger: Trigger;
  requestId?: string;
}

/** What a step changes besides the step itself. */
export interface StepChange {
  cause: Cause;
  step: string;
  errorIds?: readonly string[];
  systemErrorMessage?: string;
  subSegment?: string | null;
  rewardCode?: string | null;
  consolationRewardCode?: string | null;
  /**
   * INSTANT (the built-in decision), LIST or HTTP_SOURCE (an instant-match source), EMAIL_LOOP (a mailed code),
   * SSO (the organization's sign-on), MANUAL (a review).
   */
  verificationMethod?: 'INSTANT' | 'MANUAL' | 'LIST' | 'HTTP_SOURCE' | 'EMAIL_LOOP' | 'SSO';
  /** Other stored fields (person, hashes, organization, ...). */
  fields?: Partial<VerificationRecord>;
}

/**
 * Moves a locked verification to a step (or records a recoverable error on the same one): the row, its
 * last response, the step and the events are one statement in the caller's transaction (or, unlocked, on
 * the pool if the row is still as read: NeedsLock otherwise).
 */
export async function applyChange(
  trx: Writer,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  change: StepChange,
): Promise<VerificationAnswer> {
  return (await applyChangeToRecord(trx, ctx, record, program, change)).lastResponse;
}

/** applyChange, answering the verification as it now is (for a step taken on the way to another). */
export async function applyChangeToRecord(
  trx: Writer,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  change: StepChange,
): Promise<VerificationRecord> {
  const from = record.currentStep;
  // A move the state machine does not have is a bug here, never something a caller may ask for.
  if (!isStep(from) || !isStep(change.step) || !isTransition(from, change.cause.trigger, change.step))
    throw internal(`No transition ${from} --${change.cause.trigger}--> ${change.step}`);
  const now = ctx.now();
  const merged: VerificationRecord = { ...record, ...change.fields };
  const next: VerificationRecord = {
    ...merged,
    currentStep: change.step,
    errorIds: [...(change.errorIds ?? [])],
    subSegment: change.subSegment === undefined ? merged.subSegment : change.subSegment,
    rewardCode: change.rewardCode === undefined ? merged.rewardCode : change.rewardCode,
    verificationMethod: change.verificationMethod ?? record.verificationMethod,
    succeededAt: change.step === 'success' ? now : record.succeededAt,
  };
  const response = buildResponse(
    {
      ...next,
      systemErrorMessage: change.systemErrorMessage,
      consolationRewardCode: change.consolationRewardCode,
      rejectionReasons: next.docUploadRejectionReasons,
      docUploadToken:
        next.currentStep === 'docUpload' ? ctx.docUploadToken(record.id, next.docUploadRejectionCount) : '',
    },
    program,
  );
  const changes = {
    ...change.fields,
    currentStep: next.currentStep,
    errorIds: next.errorIds,
    subSegment: next.subSegment,
    rewardCode: next.rewardCode,
    verificationMethod: next.verificationMethod,
    succeededAt: next.succeededAt,
    lastResponse: response,
    // Only a call's own change is replayed to its retry; an expiry on the way is not that call's change.
    lastRequestId: change.cause.requestId || null,
  };
  const common = {
    verificationId: record.id,
    programId: record.programId,
    accountId: record.accountId,
    testMode: isTestMode(program),
    occurredAt: now,
  };
  const announced: OutboxEvent[] = [];
  if (change.step !== record.currentStep)
    announced.push(
      events.stepChanged({
        ...common,
        ...events.stepProjection(next),
        previousStep: record.currentStep,
        currentStep: change.step,
        errorIds: next.errorIds,
      }),
    );
  if (change.step === 'success' && record.currentStep !== 'success')
    announced.push(
      events.succeeded({
        ...common,
        segment: record.segment,
        subSegment: next.subSegment ?? '',
        verificationMethod: next.verificationMethod ?? 'INSTANT',
        organizationId: next.organizationId ?? 0,
      }),
    );
  const entry = {
    verificationId: record.id,
    step: change.step,
    previousStep: from,
    trigger: change.cause.trigger,
    errorIds: next.errorIds,
    occurredAt: now,
  };
  if (trx instanceof UnlockedWriter) {
    const pool = trx.take();
    const query = updateVerificationIfQuery(pool, record.id, trx.version, changes);
    if (!(await writeWithStepIf(pool, ctx.schema, query, entry, announced)))
      throw new NeedsLock('the verification changed since it was read');
  } else
    await writeWithStep(trx, ctx.schema, updateVerificationQuery(trx, record.id, changes), entry, announced);
  return { ...next, lastResponse: response, lastRequestId: change.cause.requestId || null };
}
