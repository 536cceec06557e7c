import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** The caller a valid bearer token stands for. Accounts and their tokens arrive with the programs service. */
export interface Principal {
  kind: 'operator';
}

/** The spec: a missing or invalid token gives 401 with a systemErrorMessage saying it is empty or invalid. */
export const INVALID_TOKEN_MESSAGE = 'Access token is empty or invalid';

/** Constant-time check of a presented token against the operator token (compares hashes: equal lengths). */
export function operatorTokenVerifier(operatorToken: string): (token: string) => Principal | undefined {
  const expected = sha256(operatorToken);
  return (token) => (timingSafeEqual(sha256(token), expected) ? { kind: 'operator' } : undefined);
}

/** Bearer-token middleware for token endpoints; the principal is left on res.locals for the route. */
export function requireToken(verify: (token: string) => Principal | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = bearerToken(req.headers.authorization);
    const principal = token ? verify(token) : undefined;
    if (!principal) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json({ systemErrorMessage: INVALID_TOKEN_MESSAGE });
      return;
    }
    res.locals.principal = principal;
    next();
  };
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
