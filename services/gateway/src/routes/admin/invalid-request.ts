import type { NextFunction, Request, Response } from 'express';
import { invalidArgument } from '@eligo/runtime';
import { httpErrorOf } from '../../errors';

/**
 * Error middleware that ends each admin router: every 400 of the admin API is ER invalidRequest, also when
 * the service that refused words it as a bare message (the documents and notifier services' "Invalid cursor",
 * a review decision's "A rejection needs 1 to 10 rejection reasons"). Other errors pass on as they are.
 */
export function adminInvalidRequest(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const { status, body } = httpErrorOf(err);
  if (status === 400 && !('errorIds' in body))
    return next(invalidArgument(body.systemErrorMessage, { errorIds: ['invalidRequest'] }));
  next(err);
}
