import type { NextFunction, Request, Response } from 'express';
import { optionalAccountOf } from '../auth/middleware';
import { httpErrorOf } from '../errors';

/**
 * The verification creation paths (POST /verification, the program path shape, POST /verification/marketplace)
 * take no token, but a program may require its account's (require_account_token_to_create): behind
 * auth.callerAccount, the account of a valid token goes to the verification service, which decides.
 */
export const callerAccountIdOf = (res: Response): string | undefined => optionalAccountOf(res)?.accountId;

/**
 * Error handler of the creation paths: the service's refusal of the caller is a 401 like that of a missing
 * token, and a 401 names its scheme (RFC 9110 section 15.5.2), as auth/middleware.ts's does.
 */
export function bearerChallenge(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (!res.headersSent && httpErrorOf(err).status === 401) res.set('WWW-Authenticate', 'Bearer');
  next(err);
}
