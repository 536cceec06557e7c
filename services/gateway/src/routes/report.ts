import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { accountOf, requireRole, type AuthMiddlewares } from '../auth/middleware';
import type { ReportsClient } from '../clients/reports.client';
import {
  modeInclusionToProto,
  reportFieldSetsToJson,
  reportStatusOf,
  reportStatusToJson,
  type ModeInclusionName,
} from '../mapping/report';
import { batchNotFound, hexIdParam, reportNotFound } from '../validation/path-ids';
import { hexIdList } from '../validation/query-params';
import type { RequestValidator } from '../validation/request-validator';
import { reportGone, sendReport } from './report-download';

export interface ReportRouteOptions {
  reports: ReportsClient;
  auth: AuthMiddlewares;
  validator: RequestValidator;
  publicBaseUrl: string;
  logger: Logger;
}

/** The ReportRequest schema guarantees the fields and their forms; defaults are applied here. */
interface ReportRequestBody {
  startDate: string;
  endDate: string;
  format?: 'CSV';
  isPiiIncluded?: boolean;
  piiReason?: string;
  programIds?: string[];
  verificationModeInclusion?: ModeInclusionName;
}

/** As many program ids as a report request may name. */
export const MAX_REPORT_PROGRAM_IDS = 100;

/**
 * REST v2 reports: an account token with the REPORTER role. Every call names the caller's account: the
 * reports service answers NOT_FOUND for another account's report or batch, exactly as for an unknown one.
 */
const OWN_RESOURCES = new Set(['verification', 'fields', 'reverify']);

export function reportRouter({
  reports,
  auth,
  validator,
  publicBaseUrl,
  logger,
}: ReportRouteOptions): Router {
  const router = Router();
  // Token, then role, then the shape of an id: nothing about a report is answered to a caller without both.
  const reporter = [auth.requireAccount, requireRole('REPORTER')];
  // "verification", "fields" and "reverify" are resources of their own, not report ids: another method on
  // them is theirs to refuse (405), not a report to look up (404).
  const skipResources: RequestHandler = (req, _res, next) =>
    next(OWN_RESOURCES.has(req.params.reportId as string) ? 'route' : undefined);
  const report = [skipResources, ...reporter, hexIdParam('reportId', reportNotFound)];
  const target = (req: Request, res: Response) => ({
    accountId: accountOf(res).accountId,
    reportId: req.params.reportId as string,
  });

  router.post('/report/verification', ...reporter, validator.body('ReportRequest'), async (req, res) => {
    const body = req.body as ReportRequestBody;
    const { accountId, tokenId, roles } = accountOf(res);
    const reply = await reports.createVerificationReport({
      accountId,
      tokenId,
      startDate: body.startDate,
      endDate: body.endDate,
      format: body.format ?? 'CSV',
      piiIncluded: body.isPiiIncluded ?? false,
      piiReason: body.piiReason ?? '',
      programIds: body.programIds ?? [],
      modeInclusion: modeInclusionToProto(body.verificationModeInclusion ?? 'ALL'),
      // The service refuses personal information to a token without the PII role (403).
      piiAllowed: roles.includes('PII'),
    });
    res.status(202).json(reportStatusToJson(reply.report, publicBaseUrl));
  });

  router.post(
    '/report/reverify/:batchId',
    ...reporter,
    hexIdParam('batchId', batchNotFound),
    async (req, res) => {
      const reply = await reports.createReverifyReport({
        accountId: accountOf(res).accountId,
        batchId: req.params.batchId as string,
      });
      res.status(202).json(reportStatusToJson(reply.report, publicBaseUrl));
    },
  );

  // Ahead of /report/:reportId, which would take "fields" for a (malformed) report id.
  router.get('/report/fields', ...reporter, async (req, res) => {
    const reply = await reports.listReportFields({
      accountId: accountOf(res).accountId,
      programIds: hexIdList(req.query, 'programIds', MAX_REPORT_PROGRAM_IDS),
    });
    res.json(reportFieldSetsToJson(reply));
  });

  router.get('/report/:reportId/status', ...report, async (req, res) => {
    const reply = await reports.getReportStatus(target(req, res));
    // A deleted or purged report is gone, its status too (as GET of the report answers).
    if (reply.report && reportStatusOf(reply.report) === 'DELETED') return void reportGone(res);
    res.json(reportStatusToJson(reply.report, publicBaseUrl));
  });

  router.get('/report/:reportId', ...report, async (req, res) => {
    // A client that goes away cancels the call at once, not only when the next chunk cannot be written.
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const { tokenId, roles } = accountOf(res);
    const parts = reports.downloadReport(
      { ...target(req, res), tokenId, piiAllowed: roles.includes('PII') },
      abort.signal,
    );
    await sendReport(res, parts, { reportId: req.params.reportId as string, publicBaseUrl, logger });
  });

  // Not in the spec: lets an integrator remove a report's data before it is purged; GET answers 410 after.
  router.delete('/report/:reportId', ...report, async (req, res) => {
    const reply = await reports.deleteReport(target(req, res));
    res.json(reportStatusToJson(reply.report, publicBaseUrl));
  });

  return router;
}
