import {
  claimsPageSize,
  claimsPageStart,
  requireClaimedBefore,
  validateVerificationId,
} from '../domain/reward-codes';
import {
  confirmClaim,
  countUnclaimed,
  listUnconfirmedClaims,
  releaseClaim,
  type ClaimKey,
  type StoredClaim,
} from '../repository/reward-codes.repository';
import type { AppContext } from './context';

/**
 * Settling pool claims. The verification service claims a code inside its own transaction and only then
 * commits the success: when that rolls back, the claim holds a code nobody was shown. Its reconciler lists
 * the claims older than any such transaction, then confirms those of successes and releases the others.
 */

export interface ClaimsPage {
  claims: Omit<StoredClaim, 'id'>[];
  /** '' on the last page. */
  nextPageToken: string;
}

/** ListUnconfirmedRewardClaims: unconfirmed claims made before `claimedBefore`, in a stable order. */
export async function listUnconfirmedRewardClaims(
  ctx: AppContext,
  query: { programId: string; claimedBefore?: Date; pageSize: number; pageToken: string },
): Promise<ClaimsPage> {
  const limit = claimsPageSize(query.pageSize);
  const rows = await listUnconfirmedClaims(ctx.db, {
    programId: query.programId || undefined,
    claimedBefore: requireClaimedBefore(query.claimedBefore),
    afterId: claimsPageStart(query.pageToken),
    limit,
  });
  const claims = rows.map(({ id: _id, ...claim }) => claim);
  return { claims, nextPageToken: rows.length === limit ? rows[rows.length - 1]!.id : '' };
}

/** ConfirmRewardClaim: true when the verification holds the code for good (now or already). */
export async function confirmRewardClaim(ctx: AppContext, claim: ClaimKey): Promise<boolean> {
  validateVerificationId(claim.verificationId);
  return confirmClaim(ctx.db, claim);
}

/** ReleaseRewardClaim: the code back in the pool, if the claim is unconfirmed and older than `claimedBefore`. */
export async function releaseRewardClaim(
  ctx: AppContext,
  claim: ClaimKey & { claimedBefore?: Date },
): Promise<{ released: boolean; remaining: number }> {
  validateVerificationId(claim.verificationId);
  const released = await releaseClaim(ctx.db, claim, requireClaimedBefore(claim.claimedBefore));
  return { released, remaining: await countUnclaimed(ctx.db, claim.programId) };
}
