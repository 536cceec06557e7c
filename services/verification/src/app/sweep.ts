import { lockExpired } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { expire } from './load';
import type { Program } from '../domain/program';
import { requireProgram } from './programs';

export const SWEEP_BATCH = 100;

/**
 * One pass of the expiry sweep: unfinished verifications whose time is up end in error (expiredVerification,
 * VerificationExpired), even when nobody reads them again. Rows are locked with SKIP LOCKED, so replicas
 * share the work and a submission in flight is left to expire on its own read. Each program is fetched once
 * per batch. Returns true when the batch was full (more are likely waiting).
 */
export async function sweepExpired(ctx: AppContext, limit = SWEEP_BATCH): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    const records = await lockExpired(trx, ctx.now(), limit);
    const programs = new Map<string, Promise<Program>>();
    for (const record of records) {
      if (!programs.has(record.programId))
        programs.set(record.programId, requireProgram(ctx, record.programId));
      await expire(trx, ctx, record, await programs.get(record.programId)!);
    }
    return records.length === limit;
  });
}
