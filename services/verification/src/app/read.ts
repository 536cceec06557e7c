import { invalidArgument, notFound, resourceExhausted } from '@eligo/runtime';
import { isFinal } from '../domain';
import * as events from '../events/publish';
import {
  findByTrackingId,
  findVerification,
  updateVerification,
  type VerificationRecord,
} from '../repository/verifications.repository';
import type { AppContext } from './context';
import { detailsOf, type VerificationDetails } from './details';
import { isVerificationId } from '../domain/ids';
import { expire, loadLocked, noVerification } from './load';
import { metadataChanged } from './metadata-changed';
import { openMetadata, sealMetadata } from './person';
import { noProgram, requireProgram } from './programs';
import type { VerificationAnswer } from '../domain/answer';
import { assertMetadata } from './start';

export const HISTORY_SIZE = 10;

/** Verifications that ended on one of these answer GET with 429 (the spec's GET statuses). */
const LIMIT_ERRORS = ['verificationLimitExceeded', 'docReviewLimitExceeded'];

/**
 * GET /verification/{id}: the response of the current state. A verification whose time is up is expired
 * first; one that ended on a limit answers 429.
 */
export async function getVerification(ctx: AppContext, id: string): Promise<VerificationAnswer> {
  const record = await current(ctx, id);
  return answer(record);
}

export async function getVerificationByTrackingId(
  ctx: AppContext,
  input: { programId: string; trackingId: string },
): Promise<VerificationAnswer> {
  const [latest] = await findByTrackingId(ctx.db, input.programId, input.trackingId, 1);
  if (!latest)
    throw notFound(`No verification of program ${input.programId} has this tracking id`, {
      errorIds: ['noVerification'],
    });
  return answer(await current(ctx, latest.id));
}

/** The 10 most recent verifications of a tracking id, newest first, for the program's own account. */
export async function listHistory(
  ctx: AppContext,
  input: { accountId: string; programId: string; trackingId: string },
): Promise<VerificationAnswer[]> {
  const program = await requireProgram(ctx, input.programId);
  if (program.accountId !== input.accountId) throw noProgram(input.programId);
  const records = await findByTrackingId(ctx.db, input.programId, input.trackingId, HISTORY_SIZE);
  return records.map((r) => r.lastResponse);
}

export async function getDetails(
  ctx: AppContext,
  input: { accountId: string; verificationId: string },
): Promise<VerificationDetails> {
  return detailsOf(ctx, await owned(ctx, input.accountId, input.verificationId));
}

/** POST expire: ends an ongoing verification; one that has ended is answered as it is, flagged. */
export async function expireVerification(
  ctx: AppContext,
  verificationId: string,
): Promise<{ response: VerificationAnswer; alreadyFinal: boolean }> {
  return ctx.db.transaction(async (trx) => {
    const { record, program, settled } = await loadLocked(trx, ctx, verificationId);
    if (settled) return { response: settled, alreadyFinal: false };
    if (isFinal(record.currentStep))
      return {
        response: {
          ...record.lastResponse,
          errorIds: ['invalidStep'],
          systemErrorMessage: 'The verification has ended',
        },
        alreadyFinal: true,
      };
    return { response: await expire(trx, ctx, record, program), alreadyFinal: false };
  });
}

export async function getMetadata(
  ctx: AppContext,
  input: { accountId: string; verificationId: string },
): Promise<Record<string, string>> {
  const record = await owned(ctx, input.accountId, input.verificationId);
  return openMetadata(ctx, record.id, record.metadata);
}

/** PUT metadata: replaces the map of an ongoing verification, within the limits, and says so (keys only). */
export async function putMetadata(
  ctx: AppContext,
  input: { accountId: string; verificationId: string; metadata: Record<string, string> },
): Promise<Record<string, string>> {
  assertMetadata(input.metadata);
  return ctx.db.transaction(async (trx) => {
    const { record } = await loadLocked(trx, ctx, input.verificationId);
    if (record.accountId !== input.accountId) throw noVerification(input.verificationId);
    if (isFinal(record.currentStep))
      throw invalidArgument('The metadata of a verification that has ended cannot change', {
        errorIds: ['invalidStep'],
      });
    await updateVerification(trx, record.id, { metadata: sealMetadata(ctx, record.id, input.metadata) });
    await metadataChanged(trx, ctx, record, input.metadata);
    return input.metadata;
  });
}

/** refireWebhooks: asks the notifier (WebhooksRefireRequested) to resend the latest notifications. */
export async function refireWebhooks(
  ctx: AppContext,
  input: { accountId: string; verificationId: string },
): Promise<void> {
  const record = await owned(ctx, input.accountId, input.verificationId);
  await ctx.db.transaction((trx) =>
    events.refireRequested(trx, ctx.schema, {
      verificationId: record.id,
      programId: record.programId,
      accountId: record.accountId,
      occurredAt: ctx.now(),
    }),
  );
}

/** The verification as it is now: expired on the way when its time is up. */
async function current(ctx: AppContext, id: string): Promise<VerificationRecord> {
  const record = isVerificationId(id) ? await findVerification(ctx.db, id) : undefined;
  if (!record) throw noVerification(id);
  if (isFinal(record.currentStep) || record.expiresAt > ctx.now()) return record;
  await ctx.db.transaction((trx) => loadLocked(trx, ctx, id));
  return (await findVerification(ctx.db, id))!;
}

function answer(record: VerificationRecord): VerificationAnswer {
  const limit = record.errorIds.find((e) => LIMIT_ERRORS.includes(e));
  if (record.currentStep === 'error' && limit)
    throw resourceExhausted('The verification ended on a limit', {
      errorIds: [limit],
    });
  return record.lastResponse;
}

/** A verification of the token's account; another account's is NOT_FOUND, never "forbidden". */
async function owned(ctx: AppContext, accountId: string, id: string): Promise<VerificationRecord> {
  const record = isVerificationId(id) ? await findVerification(ctx.db, id) : undefined;
  if (!record || record.accountId !== accountId) throw noVerification(id);
  return record;
}
