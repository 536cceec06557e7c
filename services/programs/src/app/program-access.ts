import { notFound, type DomainError } from '@eligo/runtime';
import { isId } from '../domain/ids';
import { findProgram, type StoredProgram } from '../repository/programs.repository';
import type { Db } from '../repository/db';

/**
 * Finding a program on behalf of a caller. An empty accountId is an operator or service call; a set one must
 * own the program. Unknown, malformed and foreign ids all give the same NOT_FOUND noProgram, so that a
 * tenant learns nothing about programs it does not own.
 */
export function programNotFound(): DomainError {
  return notFound('Program not found', { errorIds: ['noProgram'] });
}

export async function readProgram(db: Db, programId: string, accountId: string): Promise<StoredProgram> {
  return load(db, programId, accountId, false);
}

/** In a transaction: the program row locked (select ... for update) until it commits. */
export async function lockProgram(db: Db, programId: string, accountId: string): Promise<StoredProgram> {
  return load(db, programId, accountId, true);
}

async function load(db: Db, programId: string, accountId: string, lock: boolean): Promise<StoredProgram> {
  if (!isId(programId)) throw programNotFound();
  const stored = await findProgram(db, programId, { lock });
  if (!stored || (accountId !== '' && stored.program.accountId !== accountId)) throw programNotFound();
  return stored;
}

/** The program as read after a change, in the same transaction (for the reply and the event snapshot). */
export async function reread(db: Db, programId: string): Promise<StoredProgram> {
  const stored = await findProgram(db, programId);
  if (!stored) throw new Error(`program ${programId} vanished inside its own transaction`);
  return stored;
}
