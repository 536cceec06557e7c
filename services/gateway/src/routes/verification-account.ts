import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type Response, type RequestHandler } from 'express';
import { accountOf, type AuthMiddlewares } from '../auth/middleware';
import type { VerificationClient } from '../clients/verification.client';
import { present } from '../mapping/program';
import { detailsToJson, verificationToJson } from '../mapping/verification';
import { hexIdParam, programNotFound } from '../validation/path-ids';
import { invalidRequest, type RequestValidator } from '../validation/request-validator';
import { metadataFromJson } from '../validation/subject-body';
import { trackingIdParam, verificationIdAfter, verificationIdOf } from './verification-params';

export interface VerificationAccountRouteOptions {
  verification: VerificationClient;
  auth: AuthMiddlewares;
  validator: RequestValidator;
  publicBaseUrl: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

/** A metadata map is small (the service caps its values); a larger body is refused before it is read whole. */
export const METADATA_BODY_LIMIT = '64kb';

/**
 * The verification endpoints that need an account token. Every call names the caller's account: the service
 * answers NOT_FOUND for another account's verification or program, exactly as for an unknown one.
 */
export function verificationAccountRouter(options: VerificationAccountRouteOptions): Router {
  const { verification, auth, publicBaseUrl } = options;
  const router = Router();
  const guard = verificationIdAfter(auth.requireAccount);
  const target = (req: Request, res: Response) => ({
    accountId: accountOf(res).accountId,
    verificationId: verificationIdOf(req),
  });

  router.get(
    '/verification/program/:programId/trackingId/:trackingId/history',
    auth.requireAccount,
    hexIdParam('programId', programNotFound),
    trackingIdParam,
    async (req, res) => {
      const { verifications } = await verification.listVerificationHistory({
        accountId: accountOf(res).accountId,
        programId: req.params.programId as string,
        trackingId: req.params.trackingId as string,
      });
      res.json(verifications.map((v) => verificationToJson(v, publicBaseUrl)));
    },
  );

  router.get('/verification/:verificationId/details', ...guard, async (req, res) => {
    const { details } = await verification.getVerificationDetails(target(req, res));
    res.json(detailsToJson(present(details, 'details'), publicBaseUrl));
  });

  router.get('/verification/:verificationId/metadata', ...guard, async (req, res) => {
    const { metadata } = await verification.getMetadata(target(req, res));
    res.json({ ...metadata });
  });

  router.put(
    '/verification/:verificationId/metadata',
    ...guard,
    // Ahead of REST v2's JSON parser, so this smaller limit is the one that applies.
    express.json({ limit: METADATA_BODY_LIMIT, strict: true }),
    async (req, res) => {
      // The shape and the reserved key here; the limits (VerificationMetadata) are the service's, which
      // answers them with their own errorIds (maxMetadataValuesExceeded, maxMetadataLengthExceeded).
      if (req.body === undefined) throw invalidRequest('body is required (Content-Type: application/json)');
      const { metadata } = await verification.putMetadata({
        ...target(req, res),
        metadata: metadataFromJson(req.body, 'body'),
      });
      res.json({ ...metadata });
    },
  );

  router.post(
    '/verification/:verificationId/refireWebhooks',
    ...guard,
    options.idempotent ?? passThrough,
    async (req, res) => {
      await verification.refireWebhooks(target(req, res));
      res.status(204).end();
    },
  );

  return router;
}
