/** Roles a token carries (TokenRole in programs_service.proto without its prefix). */
export const tokenRoleNames = ['REPORTER', 'PII', 'BULK_VERIFIER'] as const;
export type TokenRoleName = (typeof tokenRoleNames)[number];

export interface OperatorPrincipal {
  kind: 'operator';
}

/** A static or OAuth access token of an account; every token endpoint acts on this account's data only. */
export interface AccountPrincipal {
  kind: 'account';
  accountId: string;
  tokenId: string;
  roles: TokenRoleName[];
}

/** The caller a valid bearer token stands for. */
export type Principal = OperatorPrincipal | AccountPrincipal;

/** The spec: a missing or invalid token gives 401 with a systemErrorMessage saying it is empty or invalid. */
export const INVALID_TOKEN_MESSAGE = 'Access token is empty or invalid';
