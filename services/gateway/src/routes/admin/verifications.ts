import { Router } from 'express';
import type { VerificationClient } from '../../clients/verification.client';
import { present } from '../../mapping/program';
import { adminVerificationToJson } from '../../mapping/verification-admin';
import { hexIdParam, verificationNotFound } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminVerificationRouteOptions {
  verification: VerificationClient;
  publicBaseUrl: string;
}

/** Staff look at any verification whole (operator token checked by the admin router). */
export function adminVerificationRouter({
  verification,
  publicBaseUrl,
}: AdminVerificationRouteOptions): Router {
  const router = Router();
  router.get(
    '/verifications/:verificationId',
    hexIdParam('verificationId', verificationNotFound),
    async (req, res) => {
      const reply = await verification.getVerificationAdmin({
        verificationId: req.params.verificationId as string,
      });
      res.json(adminVerificationToJson(present(reply.verification, 'verification'), publicBaseUrl));
    },
  );
  router.use(adminInvalidRequest);
  return router;
}
