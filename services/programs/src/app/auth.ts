import { unauthenticated, type DomainError } from '@eligo/runtime';
import {
  isClientIdFormat,
  isClientSecretFormat,
  isJwtFormat,
  isStaticTokenFormat,
  secretMatches,
  sha256,
  type TokenRole,
} from '../domain/tokens';
import {
  findActiveClient,
  findActiveTokenByHash,
  findActiveTokenById,
} from '../repository/tokens.repository';
import type { AppContext } from './context';
import { signAccessToken, verifyAccessToken } from './oauth-jwt';

export interface Principal {
  accountId: string;
  tokenId: string;
  roles: TokenRole[];
  /** Set for OAuth access tokens. */
  expiresAt?: Date;
}

/** One answer for every failure (empty, unknown, revoked, expired, forged): nothing to learn from it. */
function invalidToken(): DomainError {
  return unauthenticated('Access token is empty or invalid', { errorIds: ['invalidApiToken'] });
}

/** Authenticate: a static token (by its hash) or an OAuth access token (by signature, then revocation). */
export async function authenticate(ctx: AppContext, token: string): Promise<Principal> {
  if (isStaticTokenFormat(token)) {
    const record = await findActiveTokenByHash(ctx.db, sha256(token));
    if (!record) throw invalidToken();
    return { accountId: record.accountId, tokenId: record.id, roles: record.roles };
  }
  if (isJwtFormat(token)) {
    const claims = await verifyAccessToken(ctx.oauth.signingKey, token);
    if (!claims) throw invalidToken();
    // Revoking the static token revokes what was issued from it, also tokens not yet expired.
    const record = await findActiveTokenById(ctx.db, claims.tokenId);
    if (!record || record.accountId !== claims.accountId) throw invalidToken();
    return {
      accountId: record.accountId,
      tokenId: record.id,
      roles: record.roles,
      expiresAt: claims.expiresAt,
    };
  }
  throw invalidToken();
}

function invalidClient(): DomainError {
  return unauthenticated('Client authentication failed', { errorIds: ['invalidClient'] });
}

// Compared against when the client id is unknown, so that both failures take the same time.
const DUMMY_HASH = sha256('eligo_secret_unknown-client');

/** IssueOAuthToken (client-credentials grant): a signed access token for the client's token. */
export async function issueOAuthToken(
  ctx: AppContext,
  clientId: string,
  clientSecret: string,
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  if (!isClientIdFormat(clientId) || !isClientSecretFormat(clientSecret)) throw invalidClient();
  const client = await findActiveClient(ctx.db, clientId);
  const matches = secretMatches(clientSecret, client?.clientSecretHash ?? DUMMY_HASH);
  if (!client || !matches) throw invalidClient();
  const { jwt } = await signAccessToken(
    ctx.oauth.signingKey,
    { tokenId: client.id, accountId: client.accountId, roles: client.roles },
    ctx.oauth.ttlSeconds,
  );
  return { accessToken: jwt, expiresInSeconds: ctx.oauth.ttlSeconds };
}
