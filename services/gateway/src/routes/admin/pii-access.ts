import { Router } from 'express';
import type { ReportsClient } from '../../clients/reports.client';
import { piiAccessPageToJson } from '../../mapping/report';
import { optionalHexId, optionalInt, strictQuery } from '../../validation/query-params';
import { optionalPlainText } from '../plain-query';
import { adminInvalidRequest } from './invalid-request';

export interface AdminPiiAccessRouteOptions {
  reports: ReportsClient;
}

/**
 * The PII access log for staff (operator token checked by the admin router): every report with personal
 * information that was requested or downloaded, by which token and why, newest first.
 */
export function adminPiiAccessRouter({ reports }: AdminPiiAccessRouteOptions): Router {
  const router = Router();

  router.get('/pii-access', async (req, res) => {
    strictQuery(req.query, ['accountId', 'pageSize', 'pageToken']);
    const reply = await reports.listPiiAccess({
      // Empty: every account's.
      accountId: optionalHexId(req.query, 'accountId') ?? '',
      // 0 lets the service apply its default (100).
      pageSize: optionalInt(req.query, 'pageSize', 1, 500) ?? 0,
      pageToken: optionalPlainText(req.query, 'pageToken', 1000) ?? '',
    });
    // Reasons are written by people and may say more than they should: no cache may keep them.
    res.set('Cache-Control', 'no-store').json(piiAccessPageToJson(reply));
  });

  router.use(adminInvalidRequest);
  return router;
}
