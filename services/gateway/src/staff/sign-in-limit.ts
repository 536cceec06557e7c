import type { Knex } from '@eligo/runtime';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Console sign-ins per client address per minute, counted across replicas in the table of the other rate
 * limits (http/rate-limits.ts, whose migration creates it), under a prefix of their own. As there, a store
 * that cannot answer lets the request through (and logs): the lockout still bounds guesses per account.
 * 0 turns the limit off.
 */
export function signInLimit(db: Knex, schema: string, perMinute: number, logger: Logger): RequestHandler {
  if (perMinute <= 0) return (_req, _res, next) => next();
  const limiter = new RateLimiterPostgres({
    storeClient: db,
    storeType: 'knex',
    schemaName: schema,
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: 'staffsignin',
    points: perMinute,
    duration: 60,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    limiter.consume(req.ip ?? 'unknown').then(
      () => next(),
      (outcome: unknown) => {
        if (!(outcome instanceof RateLimiterRes)) {
          logger.warn({ err: outcome }, 'rate limit store unavailable; sign-in let through');
          return next();
        }
        res
          .status(429)
          .set('Retry-After', String(Math.max(1, Math.ceil(outcome.msBeforeNext / 1000))))
          .set('Cache-Control', 'no-store')
          .json({
            errorIds: ['tooManyRequests'],
            systemErrorMessage: 'Too many sign-ins from this address; retry after the Retry-After seconds',
          });
      },
    );
  };
}
