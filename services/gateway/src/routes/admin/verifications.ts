import { Router, type Request, type Response } from 'express';
import type { VerificationClient } from '../../clients/verification.client';
import { getAdminVerification } from '../../endpoints/admin-verifications';
import { routeTable } from '../../endpoints/route-table';
import { present } from '../../mapping/program';
import { adminVerificationToJson } from '../../mapping/verification-admin';
import { hexIdParam, verificationNotFound } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminVerificationRouteOptions {
  verification: VerificationClient;
  publicBaseUrl: string;
}

/**
 * Staff look at any verification whole (operator token checked by the admin router), as
 * endpoints/admin-verifications.ts defines it.
 */
export function adminVerificationRouter({
  verification,
  publicBaseUrl,
}: AdminVerificationRouteOptions): Router {
  async function getWhole(req: Request, res: Response) {
    const reply = await verification.getVerificationAdmin({
      verificationId: req.params.verificationId as string,
    });
    res.json(adminVerificationToJson(present(reply.verification, 'verification'), publicBaseUrl));
  }

  const router = routeTable(Router(), [
    {
      endpoint: getAdminVerification,
      before: [hexIdParam('verificationId', verificationNotFound)],
      handler: getWhole,
    },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
