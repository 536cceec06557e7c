import { failedPrecondition, invalidArgument } from '@eligo/runtime';

/**
 * Claims on reviews: a reviewer takes a pending review for a lease so that two never decide the same one.
 * Holders are named as deciders are (`operator` or `staff:<staffId>`); a lease that ran out is no claim.
 */
export type Holder = 'operator' | `staff:${string}`;

const HOLDER = /^(operator|staff:[0-9a-f]{24})$/;

/** A holder as a request names it; throws invalidArgument for anything else (empty included). */
export function parseHolder(value: string, field = 'holder'): Holder {
  if (!HOLDER.test(value))
    throw invalidArgument(`${field} must be "operator" or "staff:<staffId>" (24 lowercase hex)`);
  return value as Holder;
}

/** A review's claim as stored: both set or both null. */
export interface StoredClaim {
  claimedBy: string | null;
  claimExpiresAt: Date | null;
}

/** The claim that still holds at `now`, if any. */
export function liveClaim(claim: StoredClaim, now: Date): { holder: string; expiresAt: Date } | undefined {
  if (claim.claimedBy === null || claim.claimExpiresAt === null) return undefined;
  return claim.claimExpiresAt > now
    ? { holder: claim.claimedBy, expiresAt: claim.claimExpiresAt }
    : undefined;
}

/**
 * Whether `actor` may act on the review as far as claims go: nobody holds it, or `actor` does. Otherwise the
 * refusal the gateway answers 409 errorIds [reviewClaimed] (reason reviewClaimed). The holder is not named in
 * the message: the review itself shows claimedBy to those who may see it.
 */
export function assertNotClaimedByAnother(claim: StoredClaim, actor: string, now: Date): void {
  const live = liveClaim(claim, now);
  if (live && live.holder !== actor)
    throw failedPrecondition(
      `Another reviewer has claimed this review until ${live.expiresAt.toISOString()}`,
      { reason: 'reviewClaimed' },
    );
}

/** When a claim taken (or renewed) at `now` ends. */
export const leaseEnd = (now: Date, leaseMs: number): Date => new Date(now.getTime() + leaseMs);
