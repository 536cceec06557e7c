import { notFound, type DomainError } from '@eligo/runtime';
import type { ProgramRules } from '../domain/eligibility';
import { isId } from '../domain/ids';
import type { AppContext } from './context';

/** NOT_FOUND noProgram (which REST body shows it is the gateway's business: the search answers SEM). */
export function programNotFound(): DomainError {
  return notFound('Program not found', { errorIds: ['noProgram'] });
}

/** The rules of an existing program, or NOT_FOUND noProgram (malformed ids never leave the service). */
export async function requireProgram(ctx: AppContext, programId: string): Promise<ProgramRules> {
  const rules = isId(programId) ? await ctx.programs.find(programId) : undefined;
  if (!rules) throw programNotFound();
  return rules;
}
