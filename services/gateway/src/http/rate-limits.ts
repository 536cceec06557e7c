import { createHash } from 'node:crypto';
import type { Knex, SchemaMigration } from '@eligo/runtime';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

const TABLE = 'rate_limits';

/** The table rate-limiter-flexible's Postgres store uses, created by our migrations rather than at run time. */
export const rateLimitsMigration: SchemaMigration = {
  name: '002_rate_limits',
  async up(knex, schema) {
    await knex.raw(
      `create table ??.?? (key varchar(255) primary key, points integer not null default 0, expire bigint)`,
      [schema, TABLE],
    );
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTableIfExists(TABLE);
  },
};

export interface RateLimitSettings {
  /** Tokenless creations (POST /verification, /verification/marketplace, /organization/addSchool) per client address per minute; 0: no limit. */
  publicCreatePerMinute: number;
  /** Send-link messages per program and recipient per hour; 0: no limit. */
  sendLinkPerHour: number;
}

export interface RateLimiters {
  publicCreation: RequestHandler;
  sendLink: RequestHandler;
}

/**
 * rate-limiter-flexible on the gateway's Postgres schema, so that every replica counts against the same
 * budget. A store that cannot answer lets the request through (and logs): the limits protect against abuse,
 * they must not turn a database hiccup into an outage of the public endpoints.
 */
export function createRateLimiters(
  db: Knex,
  schema: string,
  settings: RateLimitSettings,
  logger: Logger,
): RateLimiters {
  const limiter = (keyPrefix: string, points: number, duration: number) =>
    points > 0
      ? new RateLimiterPostgres({
          storeClient: db,
          storeType: 'knex',
          schemaName: schema,
          tableName: TABLE,
          tableCreated: true,
          keyPrefix,
          points,
          duration,
        })
      : undefined;
  const publicCreation = limiter('create', settings.publicCreatePerMinute, 60);
  const sendLink = limiter('sendlink', settings.sendLinkPerHour, 3600);
  return {
    // An integrator's backend creates verifications with its token from few addresses: only tokenless
    // (browser) creations are counted per address.
    publicCreation: guard(publicCreation, logger, (req) => (req.get('authorization') ? undefined : req.ip)),
    // Per program and recipient, hashed: the key must not hold an email address or phone number.
    sendLink: guard(sendLink, logger, (req) => {
      const body = req.body as { email?: unknown; phoneNumber?: unknown } | undefined;
      const recipient = String(body?.email ?? body?.phoneNumber ?? '').toLowerCase();
      return createHash('sha256').update(`${req.params.programId}\n${recipient}`).digest('base64url');
    }),
  };
}

function guard(
  limiter: RateLimiterPostgres | undefined,
  logger: Logger,
  keyOf: (req: Request) => string | undefined,
): RequestHandler {
  if (!limiter) return (_req, _res, next) => next();
  return (req: Request, res: Response, next: NextFunction) => {
    const key = keyOf(req);
    if (!key) return next();
    limiter.consume(key).then(
      () => next(),
      (outcome: unknown) => {
        if (!(outcome instanceof RateLimiterRes)) {
          logger.warn({ err: outcome }, 'rate limit store unavailable; request let through');
          return next();
        }
        res
          .status(429)
          .set('Retry-After', String(Math.max(1, Math.ceil(outcome.msBeforeNext / 1000))))
          .json({
            errorIds: ['tooManyRequests'],
            systemErrorMessage: 'Too many requests; retry after the Retry-After seconds',
          });
      },
    );
  };
}
