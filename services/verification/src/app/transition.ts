import type { OutboxEvent, Transaction } from '@eligo/runtime';
import { internal } from '@eligo/runtime';
import { isStep, isTransition, type Trigger } from '../domain';
import * as events from '../events/publish';
import { writeWithStep } from '../repository/steps.repository';
import { updateVerificationQuery, type VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import type { Program } from '../domain/program';
import { isTestMode } from './programs';
import type { VerificationAnswer } from '../domain/answer';
import { buildResponse } from './response';

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
 * last response, the step and the events are one statement in the caller's transaction. A record read with
 * its version instead of a lock (findVerificationVersion) is changed only if its row is still that version,
 * else nothing is written and NotWritten is thrown (submit.ts then takes the lock).
 */
export async function applyChange(
  trx: Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  change: StepChange,
): Promise<VerificationAnswer> {
  return (await applyChangeToRecord(trx, ctx, record, program, change)).lastResponse;
}

/** applyChange, answering the verification as it now is (for a step taken on the way to another). */
export async function applyChangeToRecord(
  trx: Transaction,
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
  const changed = updateVerificationQuery(
    trx,
    record.id,
    {
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
    },
    record.version,
  );
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
  await writeWithStep(
    trx,
    ctx.schema,
    changed,
    {
      verificationId: record.id,
      step: change.step,
      previousStep: from,
      trigger: change.cause.trigger,
      errorIds: next.errorIds,
      occurredAt: now,
    },
    announced,
  );
  // The row is another version now, which only this change's transaction knows.
  return {
    ...next,
    lastResponse: response,
    lastRequestId: change.cause.requestId || null,
    version: undefined,
  };
}
