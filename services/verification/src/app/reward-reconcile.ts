import { findVerification, type VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isVerificationId } from '../domain/ids';
import type { RewardClaim, RewardClaimsPort } from './ports';

/**
 * A live success claims its pool code from the programs service inside the verification's transaction and
 * only then commits. When that transaction rolls back (or the process dies), the code stays claimed by a
 * verification that never succeeded. The reconciler settles every claim once it is older than a bound:
 * kept for good when the verification succeeded with that code, otherwise returned to the pool. A
 * verification that later succeeds after all claims again (ClaimRewardCode), so releasing is always safe.
 */

/** Longer than any success transaction can last (its claim call has a deadline of a few seconds). */
export const REWARD_CLAIM_BOUND_MS = 10 * 60_000;
/** How often the reconciler looks for claims to settle. */
export const REWARD_RECONCILE_INTERVAL_MS = 60_000;
/** Claims settled per pass at most; the job runs again at once when a pass stopped there. */
export const RECONCILE_BATCH = 500;

export interface ReconcileOptions {
  claims: RewardClaimsPort;
  /** Only claims at least this old are settled. */
  olderThanMs: number;
  batch?: number;
}

export interface ReconcileResult {
  confirmed: number;
  released: number;
  /** Claims of verifications this service does not have (another deployment's): left to their owner. */
  unknown: number;
  /** The pass stopped at its batch: more claims may be waiting (PeriodicJob's run answer). */
  more: boolean;
}

type Decision = 'confirm' | 'release' | 'unknown';

/**
 * One pass over the unconfirmed claims older than `olderThanMs`. Each is decided under the verification's
 * row lock, the lock the success path holds from before its claim until its commit: a success in flight is
 * waited for, and none can start until the decision is applied. Idempotent: settled claims are no longer
 * listed, and a second pass finds nothing more to do.
 */
export async function reconcileRewardClaims(
  ctx: Pick<AppContext, 'db' | 'now'>,
  options: ReconcileOptions,
): Promise<ReconcileResult> {
  const batch = options.batch ?? RECONCILE_BATCH;
  const claimedBefore = new Date(ctx.now().getTime() - options.olderThanMs);
  const result: ReconcileResult = { confirmed: 0, released: 0, unknown: 0, more: false };
  let pageToken = '';
  do {
    const page = await options.claims.list(claimedBefore, pageToken);
    for (const claim of page.claims) {
      // Unknown claims do not count towards the batch: they stay listed, and must not hide the others.
      if (result.confirmed + result.released >= batch) return { ...result, more: true };
      const decision = await settle(ctx, options.claims, claim, claimedBefore);
      if (decision === 'confirm') result.confirmed += 1;
      else if (decision === 'release') result.released += 1;
      else result.unknown += 1;
    }
    pageToken = page.nextPageToken;
  } while (pageToken !== '');
  return result;
}

/** Decides one claim and applies the decision while the verification row is locked. */
function settle(
  ctx: Pick<AppContext, 'db'>,
  claims: RewardClaimsPort,
  claim: RewardClaim,
  claimedBefore: Date,
): Promise<Decision> {
  return ctx.db.transaction(async (trx) => {
    const { verificationId } = claim;
    const record = isVerificationId(verificationId)
      ? await findVerification(trx, verificationId, true)
      : undefined;
    const decision = decide(claim, record);
    // A claim already settled by another replica answers false: nothing left to do either way.
    if (decision === 'confirm') await claims.confirm(claim);
    if (decision === 'release') await claims.release(claim, claimedBefore);
    return decision;
  });
}

/**
 * Kept when the verification succeeded with exactly this code of this program; released when it is in any
 * other state (if it succeeds later, it claims again); never touched when it is not ours.
 */
function decide(claim: RewardClaim, record: VerificationRecord | undefined): Decision {
  if (!record) return 'unknown';
  const holds =
    record.currentStep === 'success' &&
    record.programId === claim.programId &&
    record.rewardCode === claim.rewardCode;
  return holds ? 'confirm' : 'release';
}
