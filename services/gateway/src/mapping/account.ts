import type { programsV1 } from '@eligo/proto';
import type { AccessTokenCreatedJson, AccountJson } from '../endpoints/admin-accounts';
import { epochMs, present } from './program';
import { tokenRolesFromProto } from './token-role';

export function accountToJson(reply: programsV1.CreateAccountResponse): AccountJson {
  const account = present(reply.account, 'account');
  return { accountId: account.accountId, name: account.name, created: epochMs(account.createdAt) };
}

/** The one reply that shows the token and the client secret. */
export function accessTokenCreatedToJson(
  reply: programsV1.CreateAccessTokenResponse,
): AccessTokenCreatedJson {
  return {
    tokenId: reply.tokenId,
    token: reply.token,
    clientId: reply.clientId,
    clientSecret: reply.clientSecret,
    name: reply.name,
    roles: tokenRolesFromProto(reply.roles),
    created: epochMs(reply.createdAt),
  };
}
