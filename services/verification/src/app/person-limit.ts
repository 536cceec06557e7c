import { resourceExhausted, type Transaction } from '@eligo/runtime';
import * as events from '../events/publish';
import { countPersonSuccesses, type VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import type { Program } from '../domain/program';
import type { VerificationAnswer } from '../domain/answer';
import { rewardCodeFor } from './rewards';
import { applyChange, type Cause, type StepChange } from './transition';

/**
 * The program's person limit: at most `quantity` successes of one person within `days`. It is checked when a
 * personal-info form is submitted and again by every change that reaches success (the social security
 * number, an approved document review), since a person may open several verifications before any succeeds.
 */

const DAY_MS = 86_400_000;
const LIMIT_ERROR = 'verificationLimitExceeded';
const LIMIT_MESSAGE = 'The person has reached the verification limit of the program';

type PersonHashes = Pick<VerificationRecord, 'personEmailHash' | 'personIdentityHash'>;

/**
 * Whether the person already has `quantity` successful verifications in the program within `days`. Every
 * check first takes transaction-scoped advisory locks on the person's hashes, so that two changes of one
 * person (on two verifications) cannot both pass the limit; the count then sees the other's commit.
 */
export async function limitReached(
  trx: Transaction,
  ctx: AppContext,
  program: Program,
  verificationId: string,
  { personEmailHash: emailHash, personIdentityHash: identityHash }: PersonHashes,
): Promise<boolean> {
  const limit = program.verificationLimit;
  // No person stored yet: nobody to count (every path to success stores one first).
  if (!limit || limit.quantity <= 0 || !emailHash) return false;
  const keys = [emailHash, identityHash].filter((k): k is Buffer => k !== null).map((k) => k.toString('hex'));
  for (const key of keys.sort())
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${program.programId}:${key}`]);
  const since = new Date(ctx.now().getTime() - limit.days * DAY_MS);
  const count = await countPersonSuccesses(trx, {
    programId: program.programId,
    emailHash,
    identityHash,
    since,
    exceptId: verificationId,
  });
  return count >= limit.quantity;
}

/** Ends the verification in error (verificationLimitExceeded) with `fields`, and says so in an event. */
export async function endOnLimit(
  trx: Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  cause: Cause,
  fields: Partial<VerificationRecord> = {},
): Promise<VerificationAnswer> {
  const response = await applyChange(trx, ctx, record, program, {
    cause,
    step: 'error',
    errorIds: [LIMIT_ERROR],
    systemErrorMessage: LIMIT_MESSAGE,
    fields,
  });
  await events.limitExceeded(trx, ctx.schema, {
    verificationId: record.id,
    programId: record.programId,
    accountId: record.accountId,
    testMode: record.testMode,
    occurredAt: ctx.now(),
  });
  return response;
}

/**
 * The one way to success: the limit checked under the person's locks (with the hashes `fields` store, else
 * the verification's), then the reward code claimed. A person past the limit ends as a submission would.
 */
export async function succeed(
  trx: Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  change: Pick<StepChange, 'cause' | 'verificationMethod' | 'fields'>,
): Promise<VerificationAnswer> {
  if (await limitReached(trx, ctx, program, record.id, { ...record, ...change.fields }))
    return endOnLimit(trx, ctx, record, program, change.cause, change.fields);
  // Claimed only once the limit let the success through: a live pool code is never claimed for a refusal.
  // Nothing is written before the claim, so a caller may still turn its failure into another change.
  const rewardCode = await rewardCodeFor(ctx, program, record.id);
  return applyChange(trx, ctx, record, program, { ...change, step: 'success', rewardCode });
}

/**
 * A call's answer, or 429 when its change ended on the limit. The change is committed first (the
 * verification ends in error, visible in history); a retry of the call is answered the same.
 */
export function refuseOnLimit(response: VerificationAnswer): VerificationAnswer {
  if (response.currentStep === 'error' && response.errorIds.includes(LIMIT_ERROR))
    throw resourceExhausted(LIMIT_MESSAGE, { errorIds: [LIMIT_ERROR] });
  return response;
}
