import { notFound, type DomainError } from '@eligo/runtime';
import { validateAccountName } from '../domain/accounts';
import { newId, isId } from '../domain/ids';
import { invalidRequest } from '../domain/invalid';
import { accountExists, insertAccount, type AccountRecord } from '../repository/accounts.repository';
import type { Db } from '../repository/db';
import type { AppContext } from './context';

/** CreateAccount (operator): an account owns programs and access tokens. */
export async function createAccount(ctx: AppContext, name: string): Promise<AccountRecord> {
  return insertAccount(ctx.db, newId(), validateAccountName(name));
}

export function accountNotFound(): DomainError {
  return notFound('Account not found');
}

/** For use cases acting for an account: required, and must exist (NOT_FOUND otherwise). */
export async function requireAccount(db: Db, accountId: string): Promise<void> {
  if (accountId === '') throw invalidRequest('accountId: is required');
  if (!isId(accountId) || !(await accountExists(db, accountId))) throw accountNotFound();
}
