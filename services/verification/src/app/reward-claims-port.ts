import type { programsV1 } from '@eligo/proto';
import { callDependency, type GrpcClient } from '@eligo/runtime';

/** A pool code the programs service handed to a verification and nobody has settled yet. */
export interface RewardClaim {
  programId: string;
  verificationId: string;
  rewardCode: string;
}

/**
 * The programs service as the reward-claim reconciler needs it (the flow's ProgramsPort only claims).
 * Confirm and release are idempotent and name the code, so a stale decision never touches a newer claim.
 */
export interface RewardClaimsPort {
  /** One page of unconfirmed claims made before `claimedBefore` ('' starts; nextPageToken '' ends). */
  list(claimedBefore: Date, pageToken: string): Promise<{ claims: RewardClaim[]; nextPageToken: string }>;
  /** Keeps the code for good; false when the verification no longer holds it. */
  confirm(claim: RewardClaim): Promise<boolean>;
  /** Returns the code to the pool unless the claim is confirmed or was renewed since `claimedBefore`. */
  release(claim: RewardClaim, claimedBefore: Date): Promise<boolean>;
}

export function rewardClaimsPort(
  client: GrpcClient<typeof programsV1.ProgramsServiceService>,
): RewardClaimsPort {
  const call = <T>(fn: () => Promise<T>) => callDependency('programs', fn);
  return {
    list: (claimedBefore, pageToken) =>
      call(() =>
        client.unary('listUnconfirmedRewardClaims', { programId: '', claimedBefore, pageSize: 0, pageToken }),
      ),
    confirm: async (claim) => (await call(() => client.unary('confirmRewardClaim', claim))).confirmed,
    release: async (claim, claimedBefore) =>
      (await call(() => client.unary('releaseRewardClaim', { ...claim, claimedBefore }))).released,
  };
}
