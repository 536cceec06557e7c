import { invalidArgument } from '@eligo/runtime';
import type { ErrorId } from '@eligo/vocabulary';
import { canonicalLocale, firstStep, LOCALE_RULE, metadataProblems, metadataRequestProblem } from '../domain';
import { newVerificationId } from '../domain/ids';
import * as events from '../events/publish';
import { writeWithStep } from '../repository/steps.repository';
import {
  findByStartRequestId,
  insertVerificationQuery,
  type NewVerification,
  type VerificationRecord,
} from '../repository/verifications.repository';
import type { AppContext } from './context';
import { assertMayCreate } from './creation-policy';
import { metadataChangedEvent } from './metadata-changed';
import { sealMetadata } from './person';
import { assertProgramOpen, isTestMode, requireProgram, segmentOf } from './programs';
import type { VerificationAnswer } from '../domain/answer';
import { buildResponse } from './response';

export const MAX_TRACKING_ID_LENGTH = 256;
export const MAX_REQUEST_ID_LENGTH = 64;

export interface StartInput {
  programId: string;
  trackingId: string;
  /** Idempotency key: a retry with it answers the verification the first call started. */
  requestId?: string;
  /** The verification's metadata from the start (PutMetadata's limits and rules); empty or unset: none. */
  metadata?: Record<string, string>;
  /** BCP 47 tag: the locale of the verification's responses; empty or unset: the program's. */
  locale?: string;
  /** The account of the caller's valid token; empty or unset: none (see assertMayCreate). */
  callerAccountId?: string;
}

/**
 * A metadata map the verification may take (PutMetadata and the start): INVALID_ARGUMENT with the errorIds
 * of its problems otherwise, the message naming what the integrator must change.
 */
export function assertMetadata(metadata: Record<string, string>): void {
  const problems: ErrorId[] = metadataProblems(metadata);
  if (problems.length === 0) return;
  const detail = metadataRequestProblem(metadata);
  throw invalidArgument(`metadata: ${problems.join(', ')}${detail ? ` (${detail})` : ''}`, {
    errorIds: problems,
  });
}

/** The canonical form of a locale given with a request; INVALID_ARGUMENT (invalidRequest) when invalid. */
export function requestLocale(locale: string | undefined): string | null {
  if (!locale) return null;
  const canonical = canonicalLocale(locale);
  if (canonical === undefined)
    throw invalidArgument(`locale: must be ${LOCALE_RULE}`, { errorIds: ['invalidRequest'] });
  return canonical;
}

/** Refuses an over-long request id rather than cutting it (two calls would then share a key). */
export function assertRequestId(requestId: string | undefined): void {
  if (requestId && requestId.length > MAX_REQUEST_ID_LENGTH)
    throw invalidArgument(`requestId: at most ${MAX_REQUEST_ID_LENGTH} characters`, {
      errorIds: ['invalidRequest'],
    });
}

/**
 * POST /verification: a new verification on the first step of the program's segment. The row and
 * VerificationCreated + VerificationStepChanged (and VerificationMetadataChanged when it starts with
 * metadata) commit together.
 */
export async function startVerification(ctx: AppContext, input: StartInput): Promise<VerificationAnswer> {
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
    });
  const metadata = input.metadata ?? {};
  assertMetadata(metadata);
  const locale = requestLocale(input.locale);
  const program = await requireProgram(ctx, input.programId);
  assertMayCreate(program, input.callerAccountId);
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
    locale,
  };
  const response = buildResponse(state, program);
  const storesMetadata = Object.keys(metadata).length > 0;
  const trackingId = input.trackingId.trim() || null;
  const testMode = isTestMode(program);
  const row: NewVerification = {
    ...state,
    programId: program.programId,
    accountId: program.accountId,
    trackingId,
    testMode,
    person: null,
    metadata: storesMetadata ? sealMetadata(ctx, id, metadata) : null,
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
  const common = {
    verificationId: id,
    programId: program.programId,
    accountId: program.accountId,
    testMode,
  };
  const announced = [
    events.created({
      ...common,
      segment: program.segment,
      trackingId: trackingId ?? '',
      occurredAt: now,
    }),
    events.stepChanged({
      ...common,
      ...events.stepProjection(row),
      previousStep: '',
      currentStep: step,
      errorIds: [],
      occurredAt: now,
    }),
  ];
  // What PutMetadata announces: the keys, never the values.
  if (storesMetadata) announced.push(metadataChangedEvent(ctx, row, metadata));
  // One statement, its own transaction: the row, its first step and its events are kept together or not at all.
  await writeWithStep(
    ctx.db,
    ctx.schema,
    insertVerificationQuery(ctx.db, row),
    { verificationId: id, step, previousStep: '', trigger: 'start', errorIds: [], occurredAt: now },
    announced,
  );
  return { id, lastResponse: response };
}
