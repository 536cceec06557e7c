import { notFound, type Knex } from '@eligo/runtime';
import * as events from '../events/publish';
import { findVerification, type VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isVerificationId } from './ids';
import type { Program } from './ports';
import { requireProgram } from './programs';
import type { VerificationResponse } from './response';
import { applyChange } from './transition';

export const noVerification = (id: string) =>
  notFound(`Verification ${id} not found`, { errorIds: ['noVerification'], body: 'ER' });

export const isFinalStep = (step: string) => step === 'success' || step === 'error';

export interface Loaded {
  record: VerificationRecord;
  program: Program;
  /** Set when the verification was found past its time and has just been expired. */
  expired?: VerificationResponse;
}

/**
 * The verification locked for a change, with its program. One whose time is up is expired on the way
 * (error, expiredVerification), so that no step can be taken on it.
 */
export async function loadLocked(trx: Knex.Transaction, ctx: AppContext, id: string): Promise<Loaded> {
  const record = isVerificationId(id) ? await findVerification(trx, id, true) : undefined;
  if (!record) throw noVerification(id);
  const program = await requireProgram(ctx, record.programId);
  if (!isFinalStep(record.currentStep) && record.expiresAt <= ctx.now())
    return { record, program, expired: await expire(trx, ctx, record, program) };
  return { record, program };
}

/** Ends an unfinished verification in error with expiredVerification (and the consolation code, if any). */
export async function expire(
  trx: Knex.Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
): Promise<VerificationResponse> {
  const response = await applyChange(trx, ctx, record, program, {
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
export function wrongStep(record: VerificationRecord): VerificationResponse {
  return {
    ...record.lastResponse,
    errorIds: ['invalidStep'],
    systemErrorMessage: `The verification is on step ${record.currentStep}`,
  };
}
