import type { AppContext } from './context';
import type { Program } from '../domain/program';
import { isTestMode } from './programs';

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
    case 'staticCode':
      return program.rewardCode || null;
    case 'rewardPool':
      return `TEST-${verificationId.slice(0, 8).toUpperCase()}`;
    case 'noCode':
      return null;
  }
}
