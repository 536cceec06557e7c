import { Router, type Request, type Response } from 'express';
import type { ProgramsClient } from '../../clients/programs.client';
import {
  adminGetAccount,
  adminListAccessTokens,
  adminListAccounts,
  type AccessTokenListQuery,
  type AccountListQuery,
} from '../../endpoints/admin-account-lists';
import { routeTable } from '../../endpoints/route-table';
import {
  accessTokenPageToJson,
  accountOverviewToJson,
  accountPageToJson,
  pageToProto,
} from '../../mapping/admin-lists';
import { present } from '../../mapping/program';
import { accountNotFound, hexIdParam } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminAccountListRouteOptions {
  programs: ProgramsClient;
}

/**
 * The staff console's reads of accounts and their tokens, as endpoints/admin-account-lists.ts defines them
 * (who may call them: the admin router's authentication and endpoints/admin-roles.ts). The programs service
 * pages the lists; a cursor it did not give is its INVALID_ARGUMENT, 400 invalidRequest here.
 */
export function adminAccountListRouter({ programs }: AdminAccountListRouteOptions): Router {
  async function list(_req: Request, res: Response) {
    const query = res.locals.query as AccountListQuery;
    const reply = await programs.listAccounts({ ...pageToProto(query), nameContains: query.name ?? '' });
    res.json(accountPageToJson(reply));
  }

  async function getOne(req: Request, res: Response) {
    const { account } = await programs.getAccount({ accountId: req.params.accountId as string });
    res.json(accountOverviewToJson(present(account, 'account')));
  }

  async function listTokens(req: Request, res: Response) {
    const query = res.locals.query as AccessTokenListQuery;
    const reply = await programs.listAccessTokens({
      accountId: req.params.accountId as string,
      ...pageToProto(query),
    });
    res.json(accessTokenPageToJson(reply));
  }

  // Path ids before the query: an id that cannot name an account is 404, whatever the query.
  const accountId = [hexIdParam('accountId', accountNotFound)];
  const router = routeTable(Router(), [
    { endpoint: adminListAccounts, handler: list },
    { endpoint: adminGetAccount, before: accountId, handler: getOne },
    { endpoint: adminListAccessTokens, before: accountId, handler: listTokens },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
