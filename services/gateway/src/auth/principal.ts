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

/**
 * Roles of a staff identity of the admin API (docs/operations.md, "Staff identities"): `reviewer` works the
 * document review queue, `support` also add-school requests, webhook deliveries and send-link messages,
 * `admin` everything. Which operation each may call: endpoints/admin-roles.ts.
 */
export const staffRoles = ['reviewer', 'support', 'admin'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** A named staff member signed in to the console: the session cookie of the admin API. */
export interface StaffPrincipal {
  kind: 'staff';
  staffId: string;
  role: StaffRole;
  /** What X-CSRF-Token must be on the session's unsafe requests (an HMAC of the session id). */
  csrfToken: string;
}

/** The caller a valid bearer token (or, on the admin API, a staff session) stands for. */
export type Principal = OperatorPrincipal | AccountPrincipal | StaffPrincipal;

/** The spec: a missing or invalid token gives 401 with a systemErrorMessage saying it is empty or invalid. */
export const INVALID_TOKEN_MESSAGE = 'Access token is empty or invalid';
