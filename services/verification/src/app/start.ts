import { invalidArgument } from '@eligo/runtime';
import { firstStep } from '../domain';
import { newVerificationId } from './ids';
import * as events from '../events/publish';
import { insertStep } from '../repository/steps.repository';
import {
  findByStartRequestId,
  insertVerification,
  type NewVerification,
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

/** A new verification, or the one a start with `input.requestId` already made (a retried call). */
export async function startOrFind(
  ctx: AppContext,
  input: StartInput,
): Promise<Pick<VerificationRecord, 'id' | 'lastResponse'>> {
  assertRequestId(input.requestId);
  try {
    return await insertNew(ctx, input);
  } catch (err) {
    // The unique index on start_request_id refuses a second verification for one request id: this call is a
    // retry (or ran beside the first), and the verification the first call started is the answer. Trying the
    // insert first costs a retry one failed insert, instead of every start a lookup.
    const earlier =
      input.requestId && isUniqueViolation(err) && (await findByStartRequestId(ctx.db, input.requestId));
    if (earlier) return earlier;
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
  const row: NewVerification = {
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
  };
  await ctx.db.transaction(async (trx) => {
    await insertVerification(trx, row);
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
      ...events.stepProjection(row),
      previousStep: '',
      currentStep: step,
      errorIds: [],
      occurredAt: now,
    });
  });
  return { id, lastResponse: response };
}
