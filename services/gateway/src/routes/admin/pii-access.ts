import { Router, type Request, type Response } from 'express';
import type { ReportsClient } from '../../clients/reports.client';
import { listPiiAccess, type PiiAccessPageJson, type PiiAccessQuery } from '../../endpoints/admin-pii-access';
import { routeTable } from '../../endpoints/route-table';
import { piiAccessPageToJson } from '../../mapping/report';
import { adminInvalidRequest } from './invalid-request';

export interface AdminPiiAccessRouteOptions {
  reports: ReportsClient;
}

/**
 * The PII access log for staff (operator token checked by the admin router), as endpoints/admin-pii-access.ts
 * defines it: every report with personal information that was requested or downloaded, by which token and
 * why, newest first.
 */
export function adminPiiAccessRouter({ reports }: AdminPiiAccessRouteOptions): Router {
  async function listLog(_req: Request, res: Response) {
    const query = res.locals.query as PiiAccessQuery;
    const reply = await reports.listPiiAccess({
      // Empty: every account's.
      accountId: query.accountId ?? '',
      // 0 lets the service apply its default (100).
      pageSize: query.pageSize ?? 0,
      pageToken: query.pageToken ?? '',
    });
    // Reasons are written by people and may say more than they should: no cache may keep them.
    res.set('Cache-Control', 'no-store').json(piiAccessPageToJson(reply) satisfies PiiAccessPageJson);
  }

  const router = routeTable(Router(), [{ endpoint: listPiiAccess, handler: listLog }]);
  router.use(adminInvalidRequest);
  return router;
}
