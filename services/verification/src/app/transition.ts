import type { Knex } from '@eligo/runtime';
import * as events from '../events/publish';
import { updateVerification, type VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import type { Program } from './ports';
import { isTestMode } from './programs';
import { buildResponse, type VerificationResponse } from './response';

/** What a step changes besides the step itself. */
export interface StepChange {
  step: string;
  errorIds?: readonly string[];
  systemErrorMessage?: string;
  subSegment?: string | null;
  rewardCode?: string | null;
  consolationRewardCode?: string | null;
  verificationMethod?: 'INSTANT' | 'MANUAL';
  /** Other stored fields (person, hashes, organization, ...). */
  fields?: Partial<VerificationRecord>;
}

/**
 * Moves a locked verification to a step (or records a recoverable error on the same one): the row, its
 * last response and the events commit together in the caller's transaction.
 */
export async function applyChange(
  trx: Knex.Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  change: StepChange,
): Promise<VerificationResponse> {
  const now = ctx.now();
  const next: VerificationRecord = {
    ...record,
    ...change.fields,
    currentStep: change.step,
    errorIds: [...(change.errorIds ?? [])],
    subSegment: change.subSegment === undefined ? record.subSegment : change.subSegment,
    rewardCode: change.rewardCode === undefined ? record.rewardCode : change.rewardCode,
    verificationMethod: change.verificationMethod ?? record.verificationMethod,
    succeededAt: change.step === 'success' ? now : record.succeededAt,
  };
  const response = buildResponse(
    {
      ...next,
      systemErrorMessage: change.systemErrorMessage,
      consolationRewardCode: change.consolationRewardCode,
      rejectionReasons: next.docUploadRejectionReasons,
    },
    program,
  );
  await updateVerification(trx, record.id, {
    ...change.fields,
    currentStep: next.currentStep,
    errorIds: next.errorIds,
    subSegment: next.subSegment,
    rewardCode: next.rewardCode,
    verificationMethod: next.verificationMethod,
    succeededAt: next.succeededAt,
    lastResponse: response,
  });
  const common = {
    verificationId: record.id,
    programId: record.programId,
    accountId: record.accountId,
    testMode: isTestMode(program),
    occurredAt: now,
  };
  if (change.step !== record.currentStep)
    await events.stepChanged(trx, ctx.schema, {
      ...common,
      previousStep: record.currentStep,
      currentStep: change.step,
      errorIds: next.errorIds,
    });
  if (change.step === 'success' && record.currentStep !== 'success')
    await events.succeeded(trx, ctx.schema, {
      ...common,
      segment: record.segment,
      subSegment: next.subSegment ?? '',
      verificationMethod: next.verificationMethod ?? 'INSTANT',
      organizationId: next.organizationId ?? 0,
    });
  return response;
}
