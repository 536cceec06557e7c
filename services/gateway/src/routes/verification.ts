import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { AuthMiddlewares } from '../auth/middleware';
import type { VerificationClient } from '../clients/verification.client';
import { replyToJson } from '../mapping/verification';
import { hexIdParam, programNotFound } from '../validation/path-ids';
import { invalidRequest, type RequestValidator } from '../validation/request-validator';
import { localeFromJson, metadataFromJson } from '../validation/subject-body';
import { bearerChallenge, callerAccountIdOf } from './creation-caller';
import { marketplaceRouter } from './marketplace';
import { verificationAccountRouter } from './verification-account';
import { requestIdOf, trackingIdParam, verificationIdOf, verificationIdParam } from './verification-params';
import { verificationStepRouter } from './verification-steps';

export interface VerificationRouteOptions {
  verification: VerificationClient;
  auth: AuthMiddlewares;
  validator: RequestValidator;
  publicBaseUrl: string;
  /** ELIGO_HTTP_BODY_LIMIT: the routes read their own bodies (see mountRest). */
  bodyLimit: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

interface NewVerificationBody {
  programId: string;
  trackingId?: string;
  metadata?: unknown;
  locale?: string;
}

/**
 * The verification flow of REST v2: start, read, expire, the steps (verification-steps.ts) and the token
 * endpoints (verification-account.ts). The flow endpoints need no token: the unguessable verificationId is
 * the capability, and an Authorization header sent with them is ignored, except that the creation paths pass
 * a valid token's account on for programs that require it (creation-caller.ts). Mounted ahead of REST v2's JSON
 * parser, because some steps take other bodies (application/jose) or smaller limits; each route that takes
 * a body parses it itself.
 */
export function verificationRouter(options: VerificationRouteOptions): Router {
  const { verification, validator, publicBaseUrl } = options;
  const router = Router();
  const json = express.json({ limit: options.bodyLimit, strict: true });
  const idempotent = options.idempotent ?? passThrough;

  router.post(
    '/verification',
    json,
    idempotent,
    options.auth.callerAccount,
    async (req: Request, res: Response) => {
      if (req.body === undefined) throw invalidRequest('body is required (Content-Type: application/json)');
      // The metadata is judged like PUT .../metadata's: its shape here, its limits by the service, which
      // answers them with their own errorIds (the schema would make them invalidRequest).
      const { metadata, ...rest } = req.body as NewVerificationBody;
      const problem = validator.check('NewVerificationRequest', rest);
      if (problem !== undefined) throw invalidRequest(problem);
      const { programId, trackingId, locale } = rest;
      const reply = await verification.startVerification({
        programId,
        trackingId: trackingId ?? '',
        requestId: requestIdOf(req),
        metadata: metadata === undefined ? {} : metadataFromJson(metadata, 'body.metadata'),
        locale: locale === undefined ? '' : localeFromJson(locale, 'body.locale'),
        callerAccountId: callerAccountIdOf(res),
      });
      res.json(replyToJson(reply, publicBaseUrl));
    },
    bearerChallenge,
  );

  // No two routes of these routers match the same path: /verification/program/... has more segments than
  // any :verificationId route of the same method, and reserved words are passed on (verification-params.ts).
  router.use(marketplaceRouter(options));
  router.use(verificationAccountRouter(options));
  router.use(verificationStepRouter(options));

  router.get(
    '/verification/program/:programId/trackingId/:trackingId',
    hexIdParam('programId', programNotFound),
    trackingIdParam,
    async (req, res) => {
      const reply = await verification.getVerificationByTrackingId({
        programId: req.params.programId as string,
        trackingId: req.params.trackingId as string,
      });
      res.json(replyToJson(reply, publicBaseUrl));
    },
  );

  router.get('/verification/:verificationId', ...verificationIdParam, async (req, res) => {
    const reply = await verification.getVerification({ verificationId: verificationIdOf(req) });
    res.json(replyToJson(reply, publicBaseUrl));
  });

  router.post(
    '/verification/:verificationId/expire',
    ...verificationIdParam,
    idempotent,
    async (req, res) => {
      const reply = await verification.expireVerification({ verificationId: verificationIdOf(req) });
      // Expiring a verification that had already ended changes nothing: 400 with its response.
      res.status(reply.alreadyFinal ? 400 : 200).json(replyToJson(reply, publicBaseUrl));
    },
  );

  return router;
}
