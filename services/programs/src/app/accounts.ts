import { notFound, type DomainError } from '@eligo/runtime';
import { validateAccountName, type AccountOverview } from '../domain/accounts';
import { newId, isId } from '../domain/ids';
import { invalidRequest } from '../domain/invalid';
import { accountListQuery } from '../domain/lists';
import { pageOf } from '../domain/page';
import {
  accountExists,
  findAccountOverview,
  insertAccount,
  listAccountOverviews,
  type AccountRecord,
} from '../repository/accounts.repository';
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

/** GetAccount (operator): the account with its numbers of live tokens and programs. */
export async function getAccount(ctx: AppContext, accountId: string): Promise<AccountOverview> {
  if (accountId === '') throw invalidRequest('accountId: is required');
  const account = isId(accountId) ? await findAccountOverview(ctx.db, accountId) : undefined;
  if (!account) throw accountNotFound();
  return account;
}

/** ListAccounts (operator): every account, newest first, optionally those whose name contains a text. */
export async function listAccounts(
  ctx: AppContext,
  request: { pageSize: number; pageToken: string; nameContains: string },
): Promise<{ accounts: AccountOverview[]; nextPageToken: string }> {
  const query = accountListQuery(request);
  const rows = await listAccountOverviews(ctx.db, { ...query, limit: query.limit + 1 });
  const { items, nextPageToken } = pageOf(rows, query);
  return { accounts: items, nextPageToken };
}
