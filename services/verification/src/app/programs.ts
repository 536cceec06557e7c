import { isId, SEGMENTS, type Segment } from '@eligo/vocabulary';
import { failedPrecondition, internal, notFound, permissionDenied } from '@eligo/runtime';
import type { AppContext } from './context';
import type { Program } from '../domain/program';

export const noProgram = (programId: string) =>
  notFound(`Program ${programId} not found`, { errorIds: ['noProgram'] });

/** The program, or NOT_FOUND noProgram (a malformed id is just as unknown). */
export async function requireProgram(ctx: AppContext, programId: string): Promise<Program> {
  const program = isId(programId) ? await ctx.programs.getProgram(programId) : undefined;
  if (!program) throw noProgram(programId);
  return program;
}

/** The program's segment; the programs service validates it, so anything else is a fault, not user error. */
export function segmentOf(program: Program): Segment {
  if (!Object.prototype.hasOwnProperty.call(SEGMENTS, program.segment))
    throw internal(`Program ${program.programId} has an unknown segment`);
  return program.segment as Segment;
}

export const isTestMode = (program: Program) => program.mode !== 'live';

/**
 * A verification may start only inside the program's dates (403 inactiveProgram before the start,
 * expiredProgram after the end) and, for a live reward-pool offer, while codes remain (409): test mode
 * never takes pool codes.
 */
export function assertProgramOpen(program: Program, now: Date): void {
  if (program.startDate && now < program.startDate)
    throw permissionDenied(`Program ${program.programId} has not started yet`, {
      errorIds: ['inactiveProgram'],
    });
  if (program.endDate && now >= program.endDate)
    throw permissionDenied(`Program ${program.programId} has ended`, {
      errorIds: ['expiredProgram'],
    });
  const pool = program.offerType === 'rewardPool';
  if (pool && !isTestMode(program) && program.rewardCodesRemaining <= 0)
    throw failedPrecondition(`Program ${program.programId} has no reward codes left`, {
      errorIds: ['noRemainingRewardCodes'],
    });
}
