import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type Response, type RequestHandler } from 'express';
import type { AuthMiddlewares } from '../auth/middleware';
import type { VerificationClient } from '../clients/verification.client';
import { startMarketplaceVerification, type MarketplaceBody } from '../endpoints/marketplace';
import { routeTable } from '../endpoints/route-table';
import { replyToJson } from '../mapping/verification';
import { bearerChallenge, callerAccountIdOf } from './creation-caller';
import { requestIdOf, stepErrors } from './verification-params';

export interface MarketplaceRouteOptions {
  verification: VerificationClient;
  auth: AuthMiddlewares;
  publicBaseUrl: string;
  bodyLimit: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

/** The step of the RPC: a marketplace start fills the first step with the token's subject. */
const MARKETPLACE_STEP = 'collectMarketplaceToken';

/**
 * POST /verification/marketplace {programId, marketplaceToken | verificationToken, trackingId?}, as
 * endpoints/marketplace.ts defines it: starts a verification of the program and fills its first step with
 * the subject a marketplace partner's token carries, in one request. It is the program path shape of the
 * personal-info steps with the token of collectMarketplaceToken (SubmitPersonalInfo with program_id and step
 * collectMarketplaceToken), and answers like it: 200 VR, 400 VR (recoverable, or nothing started),
 * 403/404/409/429 ER. No token needed, unless the program requires its account's (401 SEM otherwise:
 * creation-caller.ts).
 */
export function marketplaceRouter(options: MarketplaceRouteOptions): Router {
  const { verification, publicBaseUrl } = options;

  async function startMarketplace(req: Request, res: Response) {
    const body = req.body as MarketplaceBody;
    const reply = await verification.submitPersonalInfo({
      verificationId: '',
      programId: body.programId,
      step: MARKETPLACE_STEP,
      // The schema lets exactly one of the two names through.
      input: { $case: 'subjectToken', subjectToken: body.marketplaceToken ?? body.verificationToken ?? '' },
      trackingId: body.trackingId ?? '',
      requestId: requestIdOf(req),
      callerAccountId: callerAccountIdOf(res),
    });
    const vr = replyToJson(reply, publicBaseUrl);
    res.status(vr.errorIds.length > 0 ? 400 : 200).json(vr);
  }

  return routeTable(Router(), [
    {
      endpoint: startMarketplaceVerification,
      before: [express.json({ limit: options.bodyLimit, strict: true }), options.idempotent ?? passThrough],
      after: [options.auth.callerAccount],
      handler: startMarketplace,
      errors: [stepErrors, bearerChallenge],
    },
  ]);
}
