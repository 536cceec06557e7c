import { programsProgramV1 } from '@eligo/proto';
import type { AppContext } from './context';
import type { Program } from './ports';
import { isTestMode } from './programs';

const { OfferType } = programsProgramV1;

/**
 * The reward code of a success. Live: claimed from the programs service (idempotent per verification, so a
 * retried submission gets the same code). Test mode never takes pool codes: a static code is shown as is,
 * a pool offer shows a recognisable test code.
 */
export async function rewardCodeFor(
  ctx: AppContext,
  program: Program,
  verificationId: string,
): Promise<string | null> {
  if (!isTestMode(program))
    return (await ctx.programs.claimRewardCode(program.programId, verificationId)) || null;
  switch (program.offerType) {
    case OfferType.OFFER_TYPE_STATIC_CODE:
      return program.rewardCode || null;
    case OfferType.OFFER_TYPE_REWARD_POOL:
      return `TEST-${verificationId.slice(0, 8).toUpperCase()}`;
    default:
      return null;
  }
}
