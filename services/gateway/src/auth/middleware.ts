import { permissionDenied } from '@eligo/runtime';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { auditWhenAnswered, UNSAFE_METHODS } from '../staff/audit-hook';
import { sessionIdFromCookies } from '../staff/session-secrets';
import type { Authenticator } from './authenticator';
import {
  INVALID_TOKEN_MESSAGE,
  type AccountPrincipal,
  type OperatorPrincipal,
  type Principal,
  type StaffPrincipal,
  type TokenRoleName,
} from './principal';

/** Longer "tokens" are refused without asking the programs service (issued tokens are far shorter). */
const MAX_TOKEN_LENGTH = 2048;

export interface AuthMiddlewares {
  /** REST v2 token endpoints: an account's static or OAuth token. The operator token is refused (401). */
  requireAccount: RequestHandler;
  /**
   * The admin API: the operator token, or (without an Authorization header, where the gateway keeps staff) a
   * staff session's cookie; account tokens are refused (401) without a service call. What a staff session
   * may call is checked per operation (auth/staff-guard.ts). Every unsafe call that passes is written to the
   * audit log with its status (staff/audit-hook.ts).
   */
  requireOperator: RequestHandler;
  /** Endpoints both may call (GET /info). */
  requireAnyToken: RequestHandler;
  /**
   * Endpoints a token is optional on (conversions): without an Authorization header the request goes on
   * anonymously; with one, it must be a valid account token (401 otherwise, as on the token endpoints).
   */
  optionalAccount: RequestHandler;
  /**
   * Endpoints open to anyone that still act on who calls (the verification creation paths, for programs that
   * require their account's token): a valid account token leaves its principal; no token, or one that is not
   * a valid account token, goes on anonymously, as these endpoints always ignored a token they did not need.
   * An outage of the programs service goes on anonymously too: a program that needs no token must not stop
   * taking verifications, and one that does then refuses (fails closed).
   */
  callerAccount: RequestHandler;
}

/** Each leaves the principal on res.locals.principal for the route (read it with accountOf). */
export function authMiddlewares(auth: Authenticator): AuthMiddlewares {
  const guard =
    (accept: (token: string) => Promise<Principal | undefined> | Principal | undefined): RequestHandler =>
    async (req: Request, res: Response, next: NextFunction) => {
      const token = bearerToken(req.headers.authorization);
      // An outage of the programs service rejects here: Express 5 hands it to the error middleware (503).
      const principal = token === undefined ? undefined : await accept(token);
      if (!principal) {
        unauthorized(res);
        return;
      }
      res.locals.principal = principal;
      next();
    };
  const requireAccount = guard(async (token) => {
    if (auth.isOperator(token)) return undefined;
    const principal = await auth.authenticate(token);
    return principal?.kind === 'account' ? principal : undefined;
  });
  const operatorOrStaff = async (req: Request): Promise<OperatorPrincipal | StaffPrincipal | undefined> => {
    const header = req.headers.authorization;
    if (header !== undefined || !auth.staff) {
      const token = bearerToken(header);
      return token !== undefined && auth.isOperator(token) ? { kind: 'operator' } : undefined;
    }
    const sessionId = sessionIdFromCookies(req.headers.cookie);
    return sessionId === undefined ? undefined : auth.staff.access.session(sessionId);
  };
  return {
    requireAccount,
    requireOperator: async (req, res, next) => {
      // A database outage while reading a session rejects here: the error middleware answers 503/500.
      const principal = await operatorOrStaff(req);
      if (!principal) {
        unauthorized(res);
        return;
      }
      res.locals.principal = principal;
      if (auth.staff && UNSAFE_METHODS.has(req.method))
        auditWhenAnswered(req, res, principal, auth.staff.access);
      next();
    },
    requireAnyToken: guard((token) => auth.authenticate(token)),
    optionalAccount: (req, res, next) =>
      req.headers.authorization === undefined ? next() : requireAccount(req, res, next),
    callerAccount: async (req, res, next) => {
      const token = bearerToken(req.headers.authorization);
      if (token !== undefined && !auth.isOperator(token)) {
        const principal = await auth.authenticate(token).catch(() => undefined);
        if (principal?.kind === 'account') res.locals.principal = principal;
      }
      next();
    },
  };
}

/**
 * After requireAccount: the token must carry the role (REPORTER for reports, BULK_VERIFIER for bulk
 * re-verification), else 403 SEM. The account's data is not looked at, so nothing about it leaks.
 */
export function requireRole(role: TokenRoleName): RequestHandler {
  return (_req, res, next) => {
    next(
      accountOf(res).roles.includes(role)
        ? undefined
        : permissionDenied(`The access token does not have the ${role} role`),
    );
  };
}

/** The account a requireAccount route acts for. */
export function accountOf(res: Response): AccountPrincipal {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.kind !== 'account') throw new Error('route is not behind requireAccount');
  return principal;
}

/** The account of an optionalAccount route, or undefined when the request came without a token. */
export function optionalAccountOf(res: Response): AccountPrincipal | undefined {
  const principal = res.locals.principal as Principal | undefined;
  return principal?.kind === 'account' ? principal : undefined;
}

export function unauthorized(res: Response): void {
  res.status(401).set('WWW-Authenticate', 'Bearer').json({ systemErrorMessage: INVALID_TOKEN_MESSAGE });
}

/** RFC 6750 section 2.1: `Bearer <token>`, the scheme in any case, exactly one token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  const token = match?.[1];
  return token !== undefined && token.length <= MAX_TOKEN_LENGTH ? token : undefined;
}
