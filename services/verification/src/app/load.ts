import { inTransaction, notFound, type Transaction } from '@eligo/runtime';
import { allows, isFinal, isStep, type Trigger } from '../domain';
import * as events from '../events/publish';
import { findVerification, type VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isVerificationId } from '../domain/ids';
import type { Program } from '../domain/program';
import { requireProgram } from './programs';
import type { VerificationAnswer } from '../domain/answer';
import { applyChange, type Cause } from './transition';

export const noVerification = (id: string) =>
  notFound(`Verification ${id} not found`, { errorIds: ['noVerification'] });

export interface Loaded {
  record: VerificationRecord;
  program: Program;
  /**
   * The answer, already decided: the call is a retry of the one that last changed the verification (its
   * response again), or the verification was found past its time and has just been expired.
   */
  settled?: VerificationAnswer;
}

/**
 * The verification locked for a change, with its program. A retried call (same request id as the last
 * change) is answered what the first one was. One whose time is up is expired on the way (error,
 * expiredVerification), so that no step can be taken on it.
 */
export async function loadLocked(
  trx: Transaction,
  ctx: AppContext,
  id: string,
  requestId = '',
): Promise<Loaded> {
  const record = isVerificationId(id) ? await findVerification(trx, id, true) : undefined;
  if (!record) throw noVerification(id);
  const program = await requireProgram(ctx, record.programId);
  if (requestId && record.lastRequestId === requestId)
    return { record, program, settled: record.lastResponse };
  if (!isFinal(record.currentStep) && record.expiresAt <= ctx.now())
    return { record, program, settled: await expire(trx, ctx, record, program) };
  return { record, program };
}

/**
 * One step taken on the locked verification, in one transaction: a retried or expired call is answered
 * without it, and a trigger the current step does not allow answers invalidStep with nothing stored.
 */
export async function takeStep(
  ctx: AppContext,
  input: { verificationId: string; requestId?: string },
  trigger: Trigger,
  step: (trx: Transaction, loaded: Loaded, cause: Cause) => Promise<VerificationAnswer>,
): Promise<VerificationAnswer> {
  return inTransaction(ctx.db, async (trx) => {
    const loaded = await loadLocked(trx, ctx, input.verificationId, input.requestId);
    if (loaded.settled) return loaded.settled;
    const current = loaded.record.currentStep;
    if (!isStep(current) || !allows(current, trigger)) return wrongStep(loaded.record);
    return step(trx, loaded, { trigger, requestId: input.requestId });
  });
}

/** Ends an unfinished verification in error with expiredVerification (and the consolation code, if any). */
export async function expire(
  trx: Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
): Promise<VerificationAnswer> {
  const response = await applyChange(trx, ctx, record, program, {
    cause: { trigger: 'expire' },
    step: 'error',
    errorIds: ['expiredVerification'],
    systemErrorMessage: 'The verification has expired',
    consolationRewardCode: program.consolationRewardCode ?? null,
  });
  await events.expired(trx, ctx.schema, {
    verificationId: record.id,
    programId: record.programId,
    accountId: record.accountId,
    previousStep: record.currentStep,
    testMode: record.testMode,
    occurredAt: ctx.now(),
  });
  return response;
}

/** A submission to a step the verification is not on: the current response with invalidStep, nothing stored. */
export function wrongStep(record: VerificationRecord): VerificationAnswer {
  return {
    ...record.lastResponse,
    errorIds: ['invalidStep'],
    systemErrorMessage: `The verification is on step ${record.currentStep}`,
  };
}
