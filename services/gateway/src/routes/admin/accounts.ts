import { Router } from 'express';
import type { Authenticator } from '../../auth/authenticator';
import type { TokenRoleName } from '../../auth/principal';
import type { ProgramsClient } from '../../clients/programs.client';
import { accessTokenCreatedToJson, accountToJson } from '../../mapping/account';
import { tokenRoleToProto } from '../../mapping/token-role';
import { accountNotFound, hexIdParam, tokenNotFound } from '../../validation/path-ids';
import type { RequestValidator } from '../../validation/request-validator';
import { adminInvalidRequest } from './invalid-request';

export interface AdminAccountRouteOptions {
  programs: ProgramsClient;
  validator: RequestValidator;
  /** A revocation made here is dropped from this gateway's cache at once, before the event arrives. */
  authenticator: Authenticator;
}

/** Accounts and their access tokens (operator token checked by the admin router). */
export function adminAccountRouter({ programs, validator, authenticator }: AdminAccountRouteOptions): Router {
  const router = Router();
  const accountIdParam = hexIdParam('accountId', accountNotFound);
  const tokenIdParam = hexIdParam('tokenId', tokenNotFound);

  router.post('/accounts', validator.body('AccountCreateRequest'), async (req, res) => {
    const { name } = req.body as { name: string };
    res.status(201).json(accountToJson(await programs.createAccount({ name })));
  });

  router.post(
    '/accounts/:accountId/tokens',
    accountIdParam,
    validator.body('AccessTokenCreateRequest'),
    async (req, res) => {
      const { name, roles = [] } = req.body as { name: string; roles?: TokenRoleName[] };
      const reply = await programs.createAccessToken({
        accountId: req.params.accountId as string,
        name,
        roles: roles.map(tokenRoleToProto),
      });
      // The token and the client secret are shown once: no cache may keep them.
      res.status(201).set('Cache-Control', 'no-store').json(accessTokenCreatedToJson(reply));
    },
  );

  router.delete('/accounts/:accountId/tokens/:tokenId', accountIdParam, tokenIdParam, async (req, res) => {
    const tokenId = req.params.tokenId as string;
    await programs.revokeAccessToken({ accountId: req.params.accountId as string, tokenId });
    authenticator.forgetTokenId(tokenId);
    res.status(204).end();
  });

  router.use(adminInvalidRequest);
  return router;
}
