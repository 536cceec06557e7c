import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type Response, type RequestHandler } from 'express';
import { accountOf, type AuthMiddlewares } from '../auth/middleware';
import type { VerificationClient } from '../clients/verification.client';
import { routeTable } from '../endpoints/route-table';
import {
  getVerificationDetails,
  getVerificationMetadata,
  listVerificationHistory,
  putVerificationMetadata,
  refireWebhooks,
} from '../endpoints/verification';
import { checkMetadata } from '../endpoints/verification-requests';
import { present } from '../mapping/program';
import { detailsToJson, verificationToJson } from '../mapping/verification';
import { hexIdParam, programNotFound } from '../validation/path-ids';
import { checkedBody, trackingIdParam, verificationIdAfter, verificationIdOf } from './verification-params';

export interface VerificationAccountRouteOptions {
  verification: VerificationClient;
  auth: AuthMiddlewares;
  publicBaseUrl: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

/** A metadata map is small (the service caps its values); a larger body is refused before it is read whole. */
export const METADATA_BODY_LIMIT = '64kb';

/**
 * The verification endpoints that need an account token (endpoints/verification.ts). Every call names the
 * caller's account: the service answers NOT_FOUND for another account's verification or program, exactly
 * as for an unknown one.
 */
export function verificationAccountRouter(options: VerificationAccountRouteOptions): Router {
  const { verification, auth, publicBaseUrl } = options;
  const target = (req: Request, res: Response) => ({
    accountId: accountOf(res).accountId,
    verificationId: verificationIdOf(req),
  });

  async function listHistory(req: Request, res: Response) {
    const { verifications } = await verification.listVerificationHistory({
      accountId: accountOf(res).accountId,
      programId: req.params.programId as string,
      trackingId: req.params.trackingId as string,
    });
    res.json(verifications.map((v) => verificationToJson(v, publicBaseUrl)));
  }

  async function getDetails(req: Request, res: Response) {
    const { details } = await verification.getVerificationDetails(target(req, res));
    res.json(detailsToJson(present(details, 'details'), publicBaseUrl));
  }

  async function getMetadata(req: Request, res: Response) {
    const { metadata } = await verification.getMetadata(target(req, res));
    res.json({ ...metadata });
  }

  // The shape and the reserved key here; the limits (VerificationMetadata) are the service's, which answers
  // them with their own errorIds (maxMetadataValuesExceeded, maxMetadataLengthExceeded).
  async function putMetadata(req: Request, res: Response) {
    const { metadata } = await verification.putMetadata({
      ...target(req, res),
      metadata: req.body as Record<string, string>,
    });
    res.json({ ...metadata });
  }

  async function refire(req: Request, res: Response) {
    await verification.refireWebhooks(target(req, res));
    res.status(204).end();
  }

  const guard = verificationIdAfter(auth.requireAccount);
  return routeTable(Router(), [
    {
      endpoint: listVerificationHistory,
      before: [auth.requireAccount, hexIdParam('programId', programNotFound), trackingIdParam],
      handler: listHistory,
    },
    { endpoint: getVerificationDetails, before: guard, handler: getDetails },
    { endpoint: getVerificationMetadata, before: guard, handler: getMetadata },
    {
      endpoint: putVerificationMetadata,
      // Ahead of REST v2's JSON parser, so this smaller limit is the one that applies.
      before: [...guard, express.json({ limit: METADATA_BODY_LIMIT, strict: true })],
      ownBodyCheck: true,
      after: [checkedBody(checkMetadata)],
      handler: putMetadata,
    },
    { endpoint: refireWebhooks, before: [...guard, options.idempotent ?? passThrough], handler: refire },
  ]);
}
