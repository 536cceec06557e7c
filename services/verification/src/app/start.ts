import { invalidArgument } from '@eligo/runtime';
import { firstStep } from '../domain';
import { newVerificationId } from './ids';
import * as events from '../events/publish';
import { insertVerification } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { assertProgramOpen, isTestMode, requireProgram, segmentOf } from './programs';
import { buildResponse, type VerificationResponse } from './response';

export const MAX_TRACKING_ID_LENGTH = 256;

/**
 * POST /verification: a new verification on the first step of the program's segment. The row and
 * VerificationCreated + VerificationStepChanged commit together.
 */
export async function startVerification(
  ctx: AppContext,
  input: { programId: string; trackingId: string },
): Promise<VerificationResponse> {
  if (input.trackingId.length > MAX_TRACKING_ID_LENGTH)
    throw invalidArgument(`trackingId: at most ${MAX_TRACKING_ID_LENGTH} characters`, {
      errorIds: ['invalidRequest'],
      body: 'ER',
    });
  const program = await requireProgram(ctx, input.programId);
  const now = ctx.now();
  assertProgramOpen(program, now);
  const id = newVerificationId();
  const step = firstStep(segmentOf(program));
  const state = {
    id,
    segment: program.segment,
    subSegment: null,
    currentStep: step,
    errorIds: [],
    rewardCode: null,
  };
  const response = buildResponse(state, program);
  const trackingId = input.trackingId.trim() || null;
  const testMode = isTestMode(program);
  await ctx.db.transaction(async (trx) => {
    await insertVerification(trx, {
      ...state,
      programId: program.programId,
      accountId: program.accountId,
      trackingId,
      testMode,
      person: null,
      metadata: null,
      personEmailHash: null,
      personIdentityHash: null,
      organizationId: null,
      organizationName: null,
      country: null,
      verificationMethod: null,
      lastResponse: response,
      expiresAt: new Date(now.getTime() + ctx.expiryMs),
    });
    const common = {
      verificationId: id,
      programId: program.programId,
      accountId: program.accountId,
      testMode,
    };
    await events.created(trx, ctx.schema, {
      ...common,
      segment: program.segment,
      trackingId: trackingId ?? '',
      occurredAt: now,
    });
    await events.stepChanged(trx, ctx.schema, {
      ...common,
      previousStep: '',
      currentStep: step,
      errorIds: [],
      occurredAt: now,
    });
  });
  return response;
}
