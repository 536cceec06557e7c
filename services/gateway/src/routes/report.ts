import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { accountOf, requireRole, type AuthMiddlewares } from '../auth/middleware';
import type { ReportsClient } from '../clients/reports.client';
import {
  createReverifyReport,
  createVerificationReport,
  deleteReport,
  downloadReport,
  getReportStatus,
  listReportFields,
  type ReportFieldsQuery,
  type ReportRequestBody,
} from '../endpoints/report';
import { routeTable } from '../endpoints/route-table';
import {
  modeInclusionToProto,
  reportFieldSetsToJson,
  reportStatusOf,
  reportStatusToJson,
} from '../mapping/report';
import { batchNotFound, hexIdParam, reportNotFound } from '../validation/path-ids';
import { reportGone, sendReport } from './report-download';

export interface ReportRouteOptions {
  reports: ReportsClient;
  auth: AuthMiddlewares;
  publicBaseUrl: string;
  logger: Logger;
}

/**
 * "verification", "fields" and "reverify" are resources of their own, not report ids: another method on
 * them is theirs to refuse (405), not a report to look up (404).
 */
const OWN_RESOURCES = new Set(['verification', 'fields', 'reverify']);

/**
 * REST v2 reports, as endpoints/report.ts defines them: an account token with the REPORTER role. Every call
 * names the caller's account: the reports service answers NOT_FOUND for another account's report or batch,
 * exactly as for an unknown one.
 */
export function reportRouter({ reports, auth, publicBaseUrl, logger }: ReportRouteOptions): Router {
  const target = (req: Request, res: Response) => ({
    accountId: accountOf(res).accountId,
    reportId: req.params.reportId as string,
  });

  async function requestReport(req: Request, res: Response) {
    const body = req.body as ReportRequestBody;
    const { accountId, tokenId, roles } = accountOf(res);
    const reply = await reports.createVerificationReport({
      accountId,
      tokenId,
      startDate: body.startDate,
      endDate: body.endDate,
      format: body.format,
      piiIncluded: body.isPiiIncluded,
      piiReason: body.piiReason ?? '',
      programIds: body.programIds ?? [],
      modeInclusion: modeInclusionToProto(body.verificationModeInclusion),
      // The service refuses personal information to a token without the PII role (403).
      piiAllowed: roles.includes('PII'),
    });
    res.status(202).json(reportStatusToJson(reply.report, publicBaseUrl));
  }

  async function requestBatchReport(req: Request, res: Response) {
    const reply = await reports.createReverifyReport({
      accountId: accountOf(res).accountId,
      batchId: req.params.batchId as string,
    });
    res.status(202).json(reportStatusToJson(reply.report, publicBaseUrl));
  }

  async function listFields(_req: Request, res: Response) {
    const { programIds } = res.locals.query as ReportFieldsQuery;
    const reply = await reports.listReportFields({
      accountId: accountOf(res).accountId,
      programIds: programIds ?? [],
    });
    res.json(reportFieldSetsToJson(reply));
  }

  async function getStatus(req: Request, res: Response) {
    const reply = await reports.getReportStatus(target(req, res));
    // A deleted or purged report is gone, its status too (as GET of the report answers).
    if (reply.report && reportStatusOf(reply.report) === 'DELETED') return void reportGone(res);
    res.json(reportStatusToJson(reply.report, publicBaseUrl));
  }

  async function download(req: Request, res: Response) {
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
  }

  // Not in the spec: lets an integrator remove a report's data before it is purged; GET answers 410 after.
  async function remove(req: Request, res: Response) {
    const reply = await reports.deleteReport(target(req, res));
    res.json(reportStatusToJson(reply.report, publicBaseUrl));
  }

  // Token, then role, then the shape of an id: nothing about a report is answered to a caller without both.
  const reporter = [auth.requireAccount, requireRole('REPORTER')];
  const skipResources: RequestHandler = (req, _res, next) =>
    next(OWN_RESOURCES.has(req.params.reportId as string) ? 'route' : undefined);
  const report = [skipResources, ...reporter, hexIdParam('reportId', reportNotFound)];
  return routeTable(Router(), [
    { endpoint: createVerificationReport, before: reporter, handler: requestReport },
    {
      endpoint: createReverifyReport,
      before: [...reporter, hexIdParam('batchId', batchNotFound)],
      handler: requestBatchReport,
    },
    // Ahead of /report/{reportId}, which would take "fields" for a (malformed) report id.
    { endpoint: listReportFields, before: reporter, handler: listFields },
    { endpoint: getReportStatus, before: report, handler: getStatus },
    { endpoint: downloadReport, before: report, handler: download },
    { endpoint: deleteReport, before: report, handler: remove },
  ]);
}
