import { Router, type Request, type Response } from 'express';
import type { Authenticator } from '../../auth/authenticator';
import type { ProgramsClient } from '../../clients/programs.client';
import { accessTokenCreatedToJson, accountToJson } from '../../mapping/account';
import { tokenRoleToProto } from '../../mapping/token-role';
import { accountNotFound, hexIdParam, tokenNotFound } from '../../validation/path-ids';
import { routeTable } from '../../endpoints/route-table';
import {
  adminCreateAccessToken,
  adminCreateAccount,
  adminRevokeAccessToken,
  type AccessTokenCreateBody,
  type AccountCreateBody,
} from '../../endpoints/admin-accounts';
import { adminInvalidRequest } from './invalid-request';

export interface AdminAccountRouteOptions {
  programs: ProgramsClient;
  /** A revocation made here is dropped from this gateway's cache at once, before the event arrives. */
  authenticator: Authenticator;
}

/**
 * Accounts and their access tokens, as endpoints/admin-accounts.ts defines them (the operator token is
 * checked by the admin router).
 */
export function adminAccountRouter({ programs, authenticator }: AdminAccountRouteOptions): Router {
  async function createAccount(req: Request, res: Response) {
    const { name } = req.body as AccountCreateBody;
    res.status(201).json(accountToJson(await programs.createAccount({ name })));
  }

  async function createAccessToken(req: Request, res: Response) {
    const { name, roles = [] } = req.body as AccessTokenCreateBody;
    const reply = await programs.createAccessToken({
      accountId: req.params.accountId as string,
      name,
      roles: roles.map(tokenRoleToProto),
    });
    // The token and the client secret are shown once: no cache may keep them.
    res.status(201).set('Cache-Control', 'no-store').json(accessTokenCreatedToJson(reply));
  }

  async function revokeAccessToken(req: Request, res: Response) {
    const tokenId = req.params.tokenId as string;
    await programs.revokeAccessToken({ accountId: req.params.accountId as string, tokenId });
    authenticator.forgetTokenId(tokenId);
    res.status(204).end();
  }

  // Path ids before the body: an id that cannot name an account is 404, whatever the body.
  const accountId = hexIdParam('accountId', accountNotFound);
  const router = routeTable(Router(), [
    { endpoint: adminCreateAccount, handler: createAccount },
    { endpoint: adminCreateAccessToken, before: [accountId], handler: createAccessToken },
    {
      endpoint: adminRevokeAccessToken,
      before: [accountId, hexIdParam('tokenId', tokenNotFound)],
      handler: revokeAccessToken,
    },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
