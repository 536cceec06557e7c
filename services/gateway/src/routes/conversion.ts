import { passThrough } from '../idempotency/middleware';
import express, {
  Router,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { invalidArgument } from '@eligo/runtime';
import { accountOf, optionalAccountOf, unauthorized, type AuthMiddlewares } from '../auth/middleware';
import type { ReportsClient } from '../clients/reports.client';
import { httpErrorOf } from '../errors';
import { hexIdParam, verificationNotFound } from '../validation/path-ids';
import { trackingIdParam } from './verification-params';
import { MAX_AMOUNT } from '../openapi/schemas/conversion-limits';
import { expressPath } from '../endpoints/define';
import { checkBody } from '../endpoints/body-check';
import {
  ConversionRequest,
  recordConversionByTrackingId,
  recordConversionByVerification,
  type ConversionBody,
} from '../endpoints/conversion';

export interface ConversionRouteOptions {
  reports: ReportsClient;
  auth: AuthMiddlewares;
  /** ELIGO_HTTP_BODY_LIMIT: the routes read their own bodies (their 400s are SEM, see conversionErrors). */
  bodyLimit: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

/**
 * Conversion tracking (REST v2): records a purchase, or any value, against a verification. By verification
 * id a token is optional (the unguessable id is the capability); a token that is sent must be valid, and its
 * account goes to the service with the call. By account and tracking id the account's own token is required:
 * tracking ids are the integrator's (order numbers), so the path alone would let anyone record conversions
 * and learn which tracking ids exist. Mounted ahead of REST v2's JSON parser, so that every refusal of these
 * routes, malformed JSON included, has the spec's SEM body.
 */
export function conversionRouter({
  reports,
  auth,
  bodyLimit,
  idempotent = passThrough,
}: ConversionRouteOptions): Router {
  const router = Router();
  const body = [express.json({ limit: bodyLimit, strict: true }), idempotent, conversionBody];
  const record = async (
    res: Response,
    target: NonNullable<Parameters<ReportsClient['recordConversion']>[0]['target']>,
    input: ConversionBody,
  ) => {
    const reply = await reports.recordConversion({
      target,
      amount: decimalString(input.amount),
      currency: input.currency?.toUpperCase() ?? '',
      tags: input.tags ?? [],
      accountId: optionalAccountOf(res)?.accountId ?? '',
    });
    res.json({ id: reply.conversionId });
  };

  router.post(
    expressPath(recordConversionByVerification),
    auth.optionalAccount,
    hexIdParam('verificationId', verificationNotFound),
    ...body,
    async (req: Request, res: Response) => {
      await record(
        res,
        { $case: 'verificationId', verificationId: req.params.verificationId as string },
        req.body as ConversionBody,
      );
    },
    conversionErrors,
  );

  router.post(
    expressPath(recordConversionByTrackingId),
    auth.requireAccount,
    pathAccountOnly,
    trackingIdParam,
    ...body,
    async (req: Request, res: Response) => {
      await record(
        res,
        {
          $case: 'tracking',
          tracking: {
            accountId: req.params.accountId as string,
            trackingId: req.params.trackingId as string,
          },
        },
        req.body as ConversionBody,
      );
    },
    conversionErrors,
  );

  return router;
}

/**
 * The token must be of the path's account. Another account's token gets the 401 of an invalid one, whether
 * or not the path's account exists: the answer tells nothing about other accounts (a malformed id included).
 */
const pathAccountOnly: RequestHandler = (req, res, next) => {
  if (accountOf(res).accountId === req.params.accountId) next();
  else unauthorized(res);
};

const invalidBody = (message: string) => invalidArgument(message);

/**
 * The amount first, with the one message integrators match on ("Invalid amount"): missing, not a number,
 * negative, too large or not finite (JSON such as 1e400 parses to Infinity). Then the rest of
 * ConversionRequest, the definitions' body schema; the checked value replaces req.body.
 */
const conversionBody: RequestHandler = (req, _res, next) => {
  const value = req.body as unknown;
  if (value === undefined) return next(invalidBody('body is required (Content-Type: application/json)'));
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { amount } = value as { amount?: unknown };
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0 || amount >= MAX_AMOUNT)
      return next(invalidBody('Invalid amount'));
  }
  const checked = checkBody(ConversionRequest, value);
  if (!checked.ok) return next(invalidBody(checked.problem));
  req.body = checked.value;
  next();
};

/**
 * The amount as the decimal string the service takes. String() gives the shortest decimal that reads back as
 * the same number, but in exponent form for very large or small ones (1e+21, 1e-7), which is spelled out.
 */
export function decimalString(amount: number): string {
  const text = String(amount);
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = `${match[1]}${match[2] ?? ''}`;
  const point = 1 + Number(match[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${digits}${'0'.repeat(point - digits.length)}`;
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * The spec answers every refusal of the conversion endpoints with SEM ({systemErrorMessage}), 400 and 404
 * alike, whether the gateway or the service refused; server-side failures keep the ordinary mapping.
 */
function conversionErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const mapped = httpErrorOf(err);
  if (mapped.status >= 500 || res.headersSent) {
    next(err);
    return;
  }
  res.status(mapped.status).json({ systemErrorMessage: mapped.body.systemErrorMessage });
}
