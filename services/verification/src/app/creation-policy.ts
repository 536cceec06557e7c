import { unauthenticated } from '@eligo/runtime';
import type { Program } from '../domain/program';

/**
 * A program with require_account_token_to_create admits new verifications only from a caller acting for its
 * account: the account of the token the gateway authenticated (empty when none was sent or it was not valid).
 * Anyone else gets what a missing or invalid token gets on the token endpoints (401 SEM): the same whether no
 * token or another account's was sent, so nothing tells whose program it is.
 */
export function assertMayCreate(program: Program, callerAccountId: string | undefined): void {
  if (program.requireAccountTokenToCreate && callerAccountId !== program.accountId)
    throw unauthenticated('Access token is empty or invalid');
}
