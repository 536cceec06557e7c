import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { AuthMiddlewares } from '../auth/middleware';
import type { VerificationClient } from '../clients/verification.client';
import { routeTable } from '../endpoints/route-table';
import {
  expireVerification,
  getVerification,
  getVerificationByTrackingId,
  startVerification,
} from '../endpoints/verification';
import { checkNewVerification, type NewVerificationBody } from '../endpoints/verification-requests';
import { replyToJson } from '../mapping/verification';
import { hexIdParam, programNotFound } from '../validation/path-ids';
import { bearerChallenge, callerAccountIdOf } from './creation-caller';
import { marketplaceRouter } from './marketplace';
import { verificationAccountRouter } from './verification-account';
import {
  checkedBody,
  requestIdOf,
  trackingIdParam,
  verificationIdOf,
  verificationIdParam,
} from './verification-params';
import { verificationStepRouter } from './verification-steps';

export interface VerificationRouteOptions {
  verification: VerificationClient;
  auth: AuthMiddlewares;
  publicBaseUrl: string;
  /** ELIGO_HTTP_BODY_LIMIT: the routes read their own bodies (see mountRest). */
  bodyLimit: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

/**
 * The verification flow of REST v2, as endpoints/verification.ts defines it: start, read, expire, the steps
 * (verification-steps.ts) and the token endpoints (verification-account.ts). The flow endpoints need no
 * token: the unguessable verificationId is the capability, and an Authorization header sent with them is
 * ignored, except that the creation paths pass a valid token's account on for programs that require it
 * (creation-caller.ts). Mounted ahead of REST v2's JSON parser, because some steps take other bodies
 * (application/jose) or smaller limits; each route that takes a body parses it itself.
 */
export function verificationRouter(options: VerificationRouteOptions): Router {
  const { verification, publicBaseUrl } = options;
  const json = express.json({ limit: options.bodyLimit, strict: true });
  const idempotent = options.idempotent ?? passThrough;

  async function start(req: Request, res: Response) {
    const { programId, trackingId, metadata, locale } = req.body as NewVerificationBody;
    const reply = await verification.startVerification({
      programId,
      trackingId: trackingId ?? '',
      requestId: requestIdOf(req),
      metadata: metadata ?? {},
      locale: locale ?? '',
      callerAccountId: callerAccountIdOf(res),
    });
    res.json(replyToJson(reply, publicBaseUrl));
  }

  async function readByTrackingId(req: Request, res: Response) {
    const reply = await verification.getVerificationByTrackingId({
      programId: req.params.programId as string,
      trackingId: req.params.trackingId as string,
    });
    res.json(replyToJson(reply, publicBaseUrl));
  }

  async function read(req: Request, res: Response) {
    const reply = await verification.getVerification({ verificationId: verificationIdOf(req) });
    res.json(replyToJson(reply, publicBaseUrl));
  }

  async function expire(req: Request, res: Response) {
    const reply = await verification.expireVerification({ verificationId: verificationIdOf(req) });
    // Expiring a verification that had already ended changes nothing: 400 with its response.
    res.status(reply.alreadyFinal ? 400 : 200).json(replyToJson(reply, publicBaseUrl));
  }

  const router = Router();
  routeTable(router, [
    {
      endpoint: startVerification,
      before: [json, idempotent, options.auth.callerAccount],
      // The metadata is judged like PUT .../metadata's: its shape here, its limits by the service, which
      // answers them with their own errorIds (endpoints/verification-requests.ts).
      ownBodyCheck: true,
      after: [checkedBody(checkNewVerification)],
      handler: start,
      errors: [bearerChallenge],
    },
  ]);
  // No two routes of these routers match the same path: /verification/program/... has more segments than
  // any :verificationId route of the same method, and reserved words are passed on (verification-params.ts).
  router.use(marketplaceRouter(options));
  router.use(verificationAccountRouter(options));
  router.use(verificationStepRouter(options));
  return routeTable(router, [
    {
      endpoint: getVerificationByTrackingId,
      before: [hexIdParam('programId', programNotFound), trackingIdParam],
      handler: readByTrackingId,
    },
    { endpoint: getVerification, before: verificationIdParam, handler: read },
    { endpoint: expireVerification, before: [...verificationIdParam, idempotent], handler: expire },
  ]);
}
