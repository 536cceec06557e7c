import { status as Status } from '@grpc/grpc-js';
import type { programsV1 } from '@eligo/proto';
import { isServiceError } from '@eligo/runtime';
import type { RequestHandler } from 'express';
import type { StaffAccess } from '../staff/staff-access';
import { tokenRolesFromProto } from '../mapping/token-role';
import type { AuthCache } from './auth-cache';
import { operatorTokenMatcher } from './operator-token';
import type { AccountPrincipal, Principal } from './principal';

export interface AuthenticatorOptions {
  operatorToken: string;
  /** The programs service's Authenticate RPC. */
  authenticate: (req: programsV1.AuthenticateRequest) => Promise<programsV1.AuthenticateResponse>;
  cache: AuthCache;
  /** Staff identities of the admin API, kept in the gateway's schema (absent in route tests without them). */
  staff?: StaffAuthentication;
}

/** Named staff members on the admin API and the console: their sessions, and the limit on sign-ins. */
export interface StaffAuthentication {
  access: StaffAccess;
  /** Sign-ins per client address (ELIGO_GATEWAY_STAFF_SIGN_IN_PER_MINUTE). */
  signInLimit: RequestHandler;
}

export interface Authenticator {
  /** Constant-time comparison with the operator token; never calls a service. */
  isOperator(token: string): boolean;
  /**
   * The principal of a bearer token, or undefined when the token is not valid. Rejects (with the gRPC error,
   * which errors.ts maps to 503/504) when the programs service cannot answer: an outage is not a bad token.
   */
  authenticate(token: string): Promise<Principal | undefined>;
  /** Forgets cached answers of a revoked token id (event from any gateway, or a revocation made here). */
  forgetTokenId(tokenId: string): void;
  /**
   * Staff sessions (the admin API besides the operator token, the console's sign-in); undefined where the
   * gateway keeps none (route tests that do not need them).
   */
  readonly staff: StaffAuthentication | undefined;
}

/** Answers of Authenticate that mean "this token is not valid", as opposed to "could not check it". */
const invalidTokenCodes: readonly Status[] = [
  Status.UNAUTHENTICATED,
  Status.INVALID_ARGUMENT,
  Status.NOT_FOUND,
  Status.PERMISSION_DENIED,
];

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const isOperator = operatorTokenMatcher(options.operatorToken);
  const { cache } = options;

  async function authenticateAccount(token: string): Promise<AccountPrincipal | undefined> {
    const cached = cache.get(token);
    if (cached) return cached;
    const startedAt = cache.now();
    let answer: programsV1.AuthenticateResponse;
    try {
      answer = await options.authenticate({ token });
    } catch (err) {
      if (isServiceError(err) && invalidTokenCodes.includes(err.code)) return undefined;
      throw err;
    }
    if (!answer.accountId || !answer.tokenId) return undefined;
    const principal: AccountPrincipal = {
      kind: 'account',
      accountId: answer.accountId,
      tokenId: answer.tokenId,
      roles: tokenRolesFromProto(answer.roles),
    };
    cache.remember(token, principal, answer.expiresAt, startedAt);
    return principal;
  }

  return {
    isOperator,
    authenticate: async (token) => (isOperator(token) ? { kind: 'operator' } : authenticateAccount(token)),
    forgetTokenId: (tokenId) => {
      cache.dropTokenId(tokenId);
    },
    staff: options.staff,
  };
}
