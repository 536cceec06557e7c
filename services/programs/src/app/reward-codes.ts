import { setTimeout as sleep } from 'node:timers/promises';
import { failedPrecondition, type DomainError } from '@eligo/runtime';
import {
  normaliseRewardCodes,
  notPooled,
  poolLevel,
  validateVerificationId,
  type PoolLevel,
} from '../domain/reward-codes';
import * as events from '../events/publish';
import { isUniqueViolation } from '../repository/db';
import {
  CLAIMED_BY_CONSTRAINT,
  claimNextCode,
  countPool,
  countUnclaimed,
  findClaimedCode,
  insertRewardCodes,
  renewClaim,
} from '../repository/reward-codes.repository';
import type { AppContext } from './context';
import { lockProgram, readProgram, reread } from './program-access';

/** AddRewardCodes: new codes join the pool in one insert; those already in it are skipped and not counted. */
export async function addRewardCodes(
  ctx: AppContext,
  programId: string,
  codes: readonly string[],
): Promise<{ added: number; remaining: number }> {
  return ctx.db.transaction(async (trx) => {
    // Locked like every other change, so that ProgramUpdated snapshots of one program commit in order.
    await lockProgram(trx, programId, '');
    const added = await insertRewardCodes(trx, programId, normaliseRewardCodes(codes));
    const remaining = await countUnclaimed(trx, programId);
    const { program } = await reread(trx, programId);
    await events.programUpdated(trx, ctx.schema, program);
    return { added, remaining };
  });
}

function noCodesLeft(): DomainError {
  return failedPrecondition('No reward codes remaining', {
    errorIds: ['noRemainingRewardCodes'],
  });
}

// A claim that finds every remaining row locked by claims in flight waits for them to settle this many times.
const CLAIM_ATTEMPTS = 20;

/**
 * ClaimRewardCode: the program's code for a verification. A pool code is handed out once; the same
 * verification gets the same code again (until the claim is released, see reward-claims.ts). Concurrent claims take different rows (SKIP LOCKED), and the unique
 * index on (program_id, claimed_by) settles two racing claims of one verification.
 */
export async function claimRewardCode(
  ctx: AppContext,
  programId: string,
  verificationId: string,
): Promise<{ rewardCode: string; remaining: number }> {
  const { program } = await readProgram(ctx.db, programId, '');
  validateVerificationId(verificationId);
  if (program.offerType === 'STATIC_CODE') return { rewardCode: program.rewardCode ?? '', remaining: 0 };
  if (program.offerType === 'NO_CODE') return { rewardCode: '', remaining: 0 };

  const claimed = (code: string) =>
    countUnclaimed(ctx.db, programId).then((remaining) => ({ rewardCode: code, remaining }));
  // A verification asking again is succeeding now: its claim is renewed so that no reconciler releases it.
  const existing = await renewClaim(ctx.db, programId, verificationId);
  if (existing !== undefined) return claimed(existing);
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
    let code: string | undefined;
    try {
      code = await claimNextCode(ctx.db, programId, verificationId);
    } catch (err) {
      if (!isUniqueViolation(err, CLAIMED_BY_CONSTRAINT)) throw err;
      const winner = await findClaimedCode(ctx.db, programId, verificationId);
      if (winner === undefined) throw err;
      return claimed(winner);
    }
    if (code !== undefined) return claimed(code);
    // No unlocked row: the pool is empty, or its last rows are being claimed right now and one of those
    // claims may still roll back. Only an empty count is a definite answer.
    if ((await countUnclaimed(ctx.db, programId)) === 0) throw noCodesLeft();
    await sleep(5 * attempt);
  }
  throw noCodesLeft();
}

/**
 * GetRewardCodePoolLevel: how many codes a reward-pool program has, how many are left, and whether that is
 * low (domain/reward-codes.ts, lowThreshold). Other offer types have no pool in use: not pooled, all 0.
 */
export async function getRewardCodePoolLevel(
  ctx: AppContext,
  programId: string,
  accountId: string,
): Promise<PoolLevel> {
  const { program } = await readProgram(ctx.db, programId, accountId);
  if (program.offerType !== 'REWARD_POOL') return notPooled();
  const { total, unused } = await countPool(ctx.db, program.id);
  return poolLevel(total, unused);
}
