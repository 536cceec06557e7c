import { Router, type Request, type Response } from 'express';
import type { VerificationClient } from '../../clients/verification.client';
import { searchVerifications, type VerificationSearchBody } from '../../endpoints/admin-verification-search';
import { expireAdminVerification, getAdminVerification } from '../../endpoints/admin-verifications';
import { routeTable } from '../../endpoints/route-table';
import { RestError } from '../../errors';
import { present } from '../../mapping/program';
import { adminVerificationToJson } from '../../mapping/verification-admin';
import { verificationSearchPageToJson } from '../../mapping/verification-search';
import { hexIdParam, verificationNotFound } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminVerificationRouteOptions {
  verification: VerificationClient;
  publicBaseUrl: string;
}

/**
 * Staff look at any verification whole, search them, and end one (operator token or a staff session checked
 * by the admin router), as endpoints/admin-verifications.ts and admin-verification-search.ts define them.
 */
export function adminVerificationRouter({
  verification,
  publicBaseUrl,
}: AdminVerificationRouteOptions): Router {
  async function answerWhole(res: Response, verificationId: string) {
    const reply = await verification.getVerificationAdmin({ verificationId });
    res.json(adminVerificationToJson(present(reply.verification, 'verification'), publicBaseUrl));
  }

  async function getWhole(req: Request, res: Response) {
    await answerWhole(res, req.params.verificationId as string);
  }

  // The body's check (the definition) required a filter. The answer may list an email's verifications: no
  // cache may keep it.
  async function search(req: Request, res: Response) {
    const body = req.body as VerificationSearchBody;
    const reply = await verification.searchVerifications({
      trackingId: body.trackingId ?? '',
      email: body.email ?? '',
      programId: body.programId ?? '',
      pageSize: body.limit ?? 0,
      pageToken: body.cursor ?? '',
    });
    res.set('Cache-Control', 'no-store').json(verificationSearchPageToJson(reply));
  }

  // The service answers an ended verification as it is, flagged: REST v2 says 400 with it, staff get 409.
  async function expire(req: Request, res: Response) {
    const verificationId = req.params.verificationId as string;
    const reply = await verification.expireVerification({ verificationId });
    if (reply.alreadyFinal)
      throw new RestError(
        409,
        `The verification had already ended on ${reply.verification?.currentStep ?? 'a final step'}: nothing changed`,
        'ER',
        ['invalidStep'],
      );
    await answerWhole(res, verificationId);
  }

  const verificationIdParam = [hexIdParam('verificationId', verificationNotFound)];
  const router = routeTable(Router(), [
    { endpoint: searchVerifications, handler: search },
    { endpoint: getAdminVerification, before: verificationIdParam, handler: getWhole },
    { endpoint: expireAdminVerification, before: verificationIdParam, handler: expire },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
