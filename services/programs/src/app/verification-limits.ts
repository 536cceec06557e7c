import { conflict } from '@eligo/runtime';
import type { Program, VerificationLimit } from '../domain/program';
import { validateVerificationLimit } from '../domain/program-validation';
import * as events from '../events/publish';
import { updateProgramLimit } from '../repository/programs.repository';
import type { AppContext } from './context';
import { lockProgram, reread } from './program-access';

/** CreateVerificationLimit: one limit per program (ALREADY_EXISTS otherwise). */
export async function createVerificationLimit(
  ctx: AppContext,
  request: { programId: string; accountId: string; limit?: VerificationLimit | undefined },
): Promise<Program> {
  return ctx.db.transaction(async (trx) => {
    const { program: current } = await lockProgram(trx, request.programId, request.accountId);
    const limit = validateVerificationLimit(request.limit);
    if (current.verificationLimit)
      throw conflict('Program already has a verification limit', {
        errorIds: ['verificationLimitAlreadyExists'],
      });
    await updateProgramLimit(trx, current.id, limit);
    const { program } = await reread(trx, current.id);
    await events.programUpdated(trx, ctx.schema, program);
    return program;
  });
}

/** DeleteVerificationLimit: without a limit it changes nothing (no event) and returns the program. */
export async function deleteVerificationLimit(
  ctx: AppContext,
  programId: string,
  accountId: string,
): Promise<Program> {
  return ctx.db.transaction(async (trx) => {
    const { program: current } = await lockProgram(trx, programId, accountId);
    if (!current.verificationLimit) return current;
    await updateProgramLimit(trx, current.id, null);
    const { program } = await reread(trx, current.id);
    await events.programUpdated(trx, ctx.schema, program);
    return program;
  });
}
