import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { accountOf, requireRole, type AuthMiddlewares } from '../auth/middleware';
import type { ReportsClient } from '../clients/reports.client';
import { getReverification, startReverification, type ReverifyBody } from '../endpoints/reverify';
import { routeTable } from '../endpoints/route-table';
import { reverifyStartedToJson, reverifyStatusToJson } from '../mapping/report';
import { batchNotFound, hexIdParam } from '../validation/path-ids';

export interface ReverifyRouteOptions {
  reports: ReportsClient;
  auth: AuthMiddlewares;
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
 * Bulk re-verification (REST v2), as endpoints/reverify.ts defines it: an account token with the
 * BULK_VERIFIER role starts a batch over verifications of one of its programs and follows it; its report is
 * POST /report/reverify/{batchId}. Mounted ahead of the verification flow, whose /verification/:verificationId
 * routes leave "reverify" alone.
 */
export function reverifyRouter({
  reports,
  auth,
  publicBaseUrl,
  idempotent = passThrough,
}: ReverifyRouteOptions): Router {
  async function start(req: Request, res: Response) {
    const { programId, verificationIds } = req.body as ReverifyBody;
    const reply = await reports.startReverification({
      accountId: accountOf(res).accountId,
      programId,
      verificationIds,
    });
    res.status(202).json(reverifyStartedToJson(reply.batch, publicBaseUrl));
  }

  async function progress(req: Request, res: Response) {
    const reply = await reports.getReverification({
      accountId: accountOf(res).accountId,
      batchId: req.params.batchId as string,
    });
    res.json(reverifyStatusToJson(reply.batch));
  }

  const bulkVerifier = [auth.requireAccount, requireRole('BULK_VERIFIER')];
  return routeTable(Router(), [
    {
      endpoint: startReverification,
      before: [...bulkVerifier, express.json({ limit: REVERIFY_BODY_LIMIT, strict: true }), idempotent],
      handler: start,
    },
    {
      endpoint: getReverification,
      before: [...bulkVerifier, hexIdParam('batchId', batchNotFound)],
      handler: progress,
    },
  ]);
}
