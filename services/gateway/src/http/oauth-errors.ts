import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { errorMiddleware } from '../errors';
import { oauthError } from '../routes/oauth';

/**
 * The token endpoint's error middleware: a body that cannot be read is an RFC 6749 invalid_request (413 when
 * too large), so OAuth clients get the shape they parse. Anything else (a programs outage) is mapped as on
 * every other router.
 */
export function oauthErrorMiddleware(logger: Logger) {
  const common = errorMiddleware(logger);
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    const type = (err as { type?: string } | null)?.type;
    if (type === 'entity.too.large')
      return oauthError(res, 413, 'invalid_request', 'Request body is too large');
    if (type?.startsWith('entity.') || type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return oauthError(res, 400, 'invalid_request', 'Request body cannot be read');
    }
    if (type === 'parameters.too.many') return oauthError(res, 413, 'invalid_request', 'Too many parameters');
    common(err, req, res, next);
  };
}
