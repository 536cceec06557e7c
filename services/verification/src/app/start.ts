import { invalidArgument } from '@eligo/runtime';
import { firstStep } from '../domain';
import { newVerificationId } from './ids';
import * as events from '../events/publish';
import { insertStep } from '../repository/steps.repository';
import {
  findByStartRequestId,
  insertVerification,
  type VerificationRecord,
} from '../repository/verifications.repository';
import type { AppContext } from './context';
import { assertProgramOpen, isTestMode, requireProgram, segmentOf } from './programs';
import { buildResponse, type VerificationResponse } from './response';

export const MAX_TRACKING_ID_LENGTH = 256;
export const MAX_REQUEST_ID_LENGTH = 64;

export interface StartInput {
  programId: string;
  trackingId: string;
  /** Idempotency key: a retry with it answers the verification the first call started. */
  requestId?: string;
}

/** Refuses an over-long request id rather than cutting it (two calls would then share a key). */
export function assertRequestId(requestId: string | undefined): void {
  if (requestId && requestId.length > MAX_REQUEST_ID_LENGTH)
    throw invalidArgument(`requestId: at most ${MAX_REQUEST_ID_LENGTH} characters`, {
      errorIds: ['invalidRequest'],
      body: 'ER',
    });
}

/**
 * POST /verification: a new verification on the first step of the program's segment. The row and
 * VerificationCreated + VerificationStepChanged commit together.
 */
export async function startVerification(ctx: AppContext, input: StartInput): Promise<VerificationResponse> {
  return (await startOrFind(ctx, input)).lastResponse;
}

/**
 * The verification a start with `input.requestId` made, if there is one (a retried call), or a new one. Two
 * concurrent calls with one request id cannot both insert: the unique index refuses the second, which then
 * finds the first.
 */
export async function startOrFind(
  ctx: AppContext,
  input: StartInput,
): Promise<Pick<VerificationRecord, 'id' | 'lastResponse'>> {
  assertRequestId(input.requestId);
  const earlier = input.requestId ? await findByStartRequestId(ctx.db, input.requestId) : undefined;
  if (earlier) return earlier;
  try {
    return await insertNew(ctx, input);
  } catch (err) {
    const again =
      input.requestId && isUniqueViolation(err) && (await findByStartRequestId(ctx.db, input.requestId));
    if (again) return again;
    throw err;
  }
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

async function insertNew(
  ctx: AppContext,
  input: StartInput,
): Promise<Pick<VerificationRecord, 'id' | 'lastResponse'>> {
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
      startRequestId: input.requestId || null,
    });
    await insertStep(trx, {
      verificationId: id,
      step,
      previousStep: '',
      trigger: 'start',
      errorIds: [],
      occurredAt: now,
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
  return { id, lastResponse: response };
}
