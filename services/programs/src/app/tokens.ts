import { notFound, type DomainError } from '@eligo/runtime';
import { isId } from '../domain/ids';
import { requireValid } from '../domain/invalid';
import { tokenListQuery } from '../domain/lists';
import { pageOf } from '../domain/page';
import { checkName } from '../domain/text';
import { issueCredentials, MAX_TOKEN_NAME, normaliseRoles, type TokenRole } from '../domain/tokens';
import { tokenRevoked } from '../events/publish';
import {
  insertToken,
  listTokens,
  lockToken,
  markTokenRevoked,
  type TokenRecord,
} from '../repository/tokens.repository';
import { requireAccount } from './accounts';
import type { AppContext } from './context';

export interface CreatedToken {
  record: TokenRecord;
  /** Shown once; only hashes are stored. */
  token: string;
  clientId: string;
  clientSecret: string;
}

/** CreateAccessToken: a static bearer token plus OAuth client credentials for the same grant. */
export async function createAccessToken(
  ctx: AppContext,
  input: { accountId: string; name: string; roles: TokenRole[] },
): Promise<CreatedToken> {
  const { name, problem } = checkName(input.name, MAX_TOKEN_NAME);
  requireValid('name', problem);
  const roles = normaliseRoles(input.roles);
  const issued = issueCredentials();
  const record = await ctx.db.transaction(async (trx) => {
    await requireAccount(trx, input.accountId);
    return insertToken(trx, {
      id: issued.tokenId,
      accountId: input.accountId,
      name,
      roles,
      tokenHash: issued.tokenHash,
      clientId: issued.clientId,
      clientSecretHash: issued.clientSecretHash,
    });
  });
  return { record, token: issued.token, clientId: issued.clientId, clientSecret: issued.clientSecret };
}

function tokenNotFound(): DomainError {
  return notFound('Access token not found');
}

/**
 * RevokeAccessToken: the static token, its client credentials and every OAuth token issued from them stop
 * working at once (Authenticate checks revocation). Revoking again succeeds without a second event.
 */
export async function revokeAccessToken(ctx: AppContext, accountId: string, tokenId: string): Promise<void> {
  if (!isId(tokenId)) throw tokenNotFound();
  await ctx.db.transaction(async (trx) => {
    const token = await lockToken(trx, tokenId);
    if (!token || (accountId !== '' && token.accountId !== accountId)) throw tokenNotFound();
    if (token.revokedAt) return;
    await markTokenRevoked(trx, tokenId);
    await tokenRevoked(trx, ctx.schema, { tokenId, accountId: token.accountId });
  });
}

/**
 * ListAccessTokens (operator): an account's tokens, revoked ones included, newest first. A TokenRecord holds
 * no credential (the repository never reads the hashes into it).
 */
export async function listAccessTokens(
  ctx: AppContext,
  request: { accountId: string; pageSize: number; pageToken: string },
): Promise<{ tokens: TokenRecord[]; nextPageToken: string }> {
  const query = tokenListQuery(request);
  await requireAccount(ctx.db, request.accountId);
  const rows = await listTokens(ctx.db, {
    accountId: request.accountId,
    after: query.after,
    limit: query.limit + 1,
  });
  const { items, nextPageToken } = pageOf(rows, query);
  return { tokens: items, nextPageToken };
}
