import { notFound, type DomainError } from '@eligo/runtime';
import type { ProgramRules } from '../domain/eligibility';
import { isId } from '../domain/ids';
import type { AppContext } from './context';

/**
 * NOT_FOUND noProgram. The program organization search answers it with the spec's SEM body
 * ({systemErrorMessage}); the add-school endpoints with the errorIds body.
 */
export function programNotFound(body?: 'SEM'): DomainError {
  return notFound('Program not found', { errorIds: ['noProgram'], ...(body ? { body } : {}) });
}

/** The rules of an existing program, or NOT_FOUND noProgram (malformed ids never leave the service). */
export async function requireProgram(
  ctx: AppContext,
  programId: string,
  body?: 'SEM',
): Promise<ProgramRules> {
  const rules = isId(programId) ? await ctx.programs.find(programId) : undefined;
  if (!rules) throw programNotFound(body);
  return rules;
}
