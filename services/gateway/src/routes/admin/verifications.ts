import { Router, type Request, type Response } from 'express';
import type { VerificationClient } from '../../clients/verification.client';
import {
  SEARCH_FILTERS,
  searchVerifications,
  type VerificationSearchQuery,
} from '../../endpoints/admin-verification-search';
import { expireAdminVerification, getAdminVerification } from '../../endpoints/admin-verifications';
import { routeTable } from '../../endpoints/route-table';
import { invalidRequest, RestError } from '../../errors';
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

  // The URL may carry an email (personal data): no cache may keep the answer under it.
  async function search(_req: Request, res: Response) {
    const query = res.locals.query as VerificationSearchQuery;
    if (SEARCH_FILTERS.every((filter) => query[filter] === undefined))
      throw invalidRequest(`query must have at least one of ${SEARCH_FILTERS.join(', ')}`);
    const reply = await verification.searchVerifications({
      trackingId: query.trackingId ?? '',
      email: query.email ?? '',
      programId: query.programId ?? '',
      pageSize: query.limit ?? 0,
      pageToken: query.cursor ?? '',
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
