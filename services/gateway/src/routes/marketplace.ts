import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type Response, type RequestHandler } from 'express';
import type { AuthMiddlewares } from '../auth/middleware';
import type { VerificationClient } from '../clients/verification.client';
import { replyToJson } from '../mapping/verification';
import type { RequestValidator } from '../validation/request-validator';
import { marketplaceTokenOf, MARKETPLACE_STEP } from '../validation/subject-body';
import { bearerChallenge, callerAccountIdOf } from './creation-caller';
import { requestIdOf, stepErrors } from './verification-params';

export interface MarketplaceRouteOptions {
  verification: VerificationClient;
  auth: AuthMiddlewares;
  validator: RequestValidator;
  publicBaseUrl: string;
  bodyLimit: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

interface MarketplaceBody {
  programId: string;
  trackingId?: string;
}

/**
 * POST /verification/marketplace {programId, marketplaceToken | verificationToken, trackingId?}: starts a
 * verification of the program and fills its first step with the subject a marketplace partner's token
 * carries, in one request. It is the program path shape of the personal-info steps with the token of
 * collectMarketplaceToken (SubmitPersonalInfo with program_id and step collectMarketplaceToken), and answers
 * like it: 200 VR, 400 VR (recoverable, or nothing started), 403/404/409/429 ER. No token needed, unless the
 * program requires its account's (401 SEM otherwise: creation-caller.ts).
 */
export function marketplaceRouter(options: MarketplaceRouteOptions): Router {
  const { verification, validator, publicBaseUrl } = options;
  const router = Router();
  const json = express.json({ limit: options.bodyLimit, strict: true });

  router.post(
    '/verification/marketplace',
    json,
    options.idempotent ?? passThrough,
    validator.body('MarketplaceVerificationRequest'),
    options.auth.callerAccount,
    async (req: Request, res: Response) => {
      const body = req.body as MarketplaceBody & Record<string, unknown>;
      const reply = await verification.submitPersonalInfo({
        verificationId: '',
        programId: body.programId,
        step: MARKETPLACE_STEP,
        input: { $case: 'subjectToken', subjectToken: marketplaceTokenOf(body) },
        trackingId: body.trackingId ?? '',
        requestId: requestIdOf(req),
        callerAccountId: callerAccountIdOf(res),
      });
      const vr = replyToJson(reply, publicBaseUrl);
      res.status(vr.errorIds.length > 0 ? 400 : 200).json(vr);
    },
    stepErrors,
    bearerChallenge,
  );

  return router;
}
