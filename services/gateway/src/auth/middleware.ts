import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Authenticator } from './authenticator';
import { INVALID_TOKEN_MESSAGE, type AccountPrincipal, type Principal } from './principal';

/** Longer "tokens" are refused without asking the programs service (issued tokens are far shorter). */
const MAX_TOKEN_LENGTH = 2048;

export interface AuthMiddlewares {
  /** REST v2 token endpoints: an account's static or OAuth token. The operator token is refused (401). */
  requireAccount: RequestHandler;
  /** The admin API: only the operator token; account tokens are refused (401) without a service call. */
  requireOperator: RequestHandler;
  /** Endpoints both may call (GET /info). */
  requireAnyToken: RequestHandler;
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
  return {
    requireAccount: guard(async (token) => {
      if (auth.isOperator(token)) return undefined;
      const principal = await auth.authenticate(token);
      return principal?.kind === 'account' ? principal : undefined;
    }),
    requireOperator: guard((token) => (auth.isOperator(token) ? { kind: 'operator' } : undefined)),
    requireAnyToken: guard((token) => auth.authenticate(token)),
  };
}

/** The account a requireAccount route acts for. */
export function accountOf(res: Response): AccountPrincipal {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.kind !== 'account') throw new Error('route is not behind requireAccount');
  return principal;
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
