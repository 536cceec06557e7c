import { passThrough } from '../idempotency/middleware';
import express, { Router, type RequestHandler } from 'express';
import { accountOf, requireRole, type AuthMiddlewares } from '../auth/middleware';
import type { ReportsClient } from '../clients/reports.client';
import { reverifyStartedToJson, reverifyStatusToJson } from '../mapping/report';
import { batchNotFound, hexIdParam } from '../validation/path-ids';
import type { RequestValidator } from '../validation/request-validator';

export interface ReverifyRouteOptions {
  reports: ReportsClient;
  auth: AuthMiddlewares;
  validator: RequestValidator;
  publicBaseUrl: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

/**
 * Room for the largest batch (10,000 verification ids of at most 64 characters), whatever
 * ELIGO_HTTP_BODY_LIMIT is: the route reads its own body.
 */
export const REVERIFY_BODY_LIMIT = '1mb';

/**
 * Bulk re-verification (REST v2): an account token with the BULK_VERIFIER role starts a batch over
 * verifications of one of its programs and follows it; its report is POST /report/reverify/{batchId}.
 * Mounted ahead of the verification flow, whose /verification/:verificationId routes leave "reverify" alone.
 */
export function reverifyRouter({
  reports,
  auth,
  validator,
  publicBaseUrl,
  idempotent = passThrough,
}: ReverifyRouteOptions): Router {
  const router = Router();
  const bulkVerifier = [auth.requireAccount, requireRole('BULK_VERIFIER')];

  router.post(
    '/verification/reverify',
    ...bulkVerifier,
    express.json({ limit: REVERIFY_BODY_LIMIT, strict: true }),
    idempotent,
    validator.body('ReverifyRequest'),
    async (req, res) => {
      const { programId, verificationIds } = req.body as { programId: string; verificationIds: string[] };
      const reply = await reports.startReverification({
        accountId: accountOf(res).accountId,
        programId,
        verificationIds,
      });
      res.status(202).json(reverifyStartedToJson(reply.batch, publicBaseUrl));
    },
  );

  router.get(
    '/verification/reverify/:batchId',
    ...bulkVerifier,
    hexIdParam('batchId', batchNotFound),
    async (req, res) => {
      const reply = await reports.getReverification({
        accountId: accountOf(res).accountId,
        batchId: req.params.batchId as string,
      });
      res.json(reverifyStatusToJson(reply.batch));
    },
  );

  return router;
}
