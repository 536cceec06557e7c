import { z } from 'zod';
import { accountToken, er, hexIdParameter, sem } from './common';
import { defineEndpoint, type BodyOf, type EndpointResponse, type QueryOf } from './define';
import { hexIdList } from './query';
import { MAX_REPORT_PROGRAM_IDS, ReportFieldSets, ReportRequest, ReportStatus } from './report-schemas';

/**
 * REST v2 reports (the spec's "Reports and conversions" table), described once: an account token with the
 * REPORTER role on its own reports. DELETE is an addition to the spec, so that integrators can remove a
 * report's data. The routes (routes/report.ts) register them by these paths and check the request body and
 * query with these schemas (400 ER invalidRequest naming the field); the document states them from here.
 */

const tags = ['report'] as const;
const reportParams = z.object({ reportId: hexIdParameter('A report of the calling account') });

const reportStatus = (description: string): EndpointResponse => ({ description, body: ReportStatus });

/** 403 for a token without the role an endpoint needs (the re-verification endpoints need BULK_VERIFIER). */
export const missingRole = (role: string) =>
  ({ '403': sem(`The access token does not have the ${role} role`) }) satisfies Record<
    string,
    EndpointResponse
  >;

const reporter = {
  '401': { shared: 'Unauthorized' },
  ...missingRole('REPORTER'),
  '503': { shared: 'ServiceUnavailable' },
} satisfies Record<string, EndpointResponse>;
const noReport = {
  '404': sem(
    'No such report for this caller; a report of another account, and a malformed reportId, are answered ' +
      'the same way',
  ),
};
const gone = {
  '410': sem('The report was deleted or purged (systemErrorMessage "The report was deleted or purged")'),
};

export const createVerificationReport = defineEndpoint({
  method: 'post',
  path: '/report/verification',
  operationId: 'createVerificationReport',
  summary: 'Requests a report of the verifications started between two dates',
  description:
    'The report is generated in the background: poll statusUrl, then GET retrievalUrl. With isPiiIncluded ' +
    'the token also needs the PII role, and the request is recorded in the PII access log with piiReason.',
  tags,
  security: accountToken,
  body: ReportRequest,
  responses: {
    '202': reportStatus('The report, PENDING'),
    '400': er(
      'The body does not match ReportRequest, or the dates or program ids are refused (errorIds ' +
        '[invalidRequest], e.g. an end before the start or a program of another account)',
    ),
    '413': { shared: 'PayloadTooLarge' },
    ...reporter,
    '403': sem(
      'The access token does not have the REPORTER role, or asks for personal information without the PII ' +
        'role',
    ),
  },
});

export const createReverifyReport = defineEndpoint({
  method: 'post',
  path: '/report/reverify/{batchId}',
  operationId: 'createReverifyReport',
  summary: 'Requests the report of a bulk re-verification batch',
  tags,
  security: accountToken,
  params: z.object({ batchId: hexIdParameter('A re-verification batch of the calling account') }),
  responses: {
    '202': reportStatus('The report, PENDING'),
    ...reporter,
    '404': sem('No such batch for this caller (also for a malformed batchId)'),
  },
});

export const listReportFields = defineEndpoint({
  method: 'get',
  path: '/report/fields',
  operationId: 'listReportFields',
  summary: 'The columns a report can have, by scope',
  tags,
  security: accountToken,
  query: z.object({
    programIds: hexIdList({
      description:
        'Programs of the account, repeated (programIds=a&programIds=b) and/or comma-separated, at most ' +
        `${MAX_REPORT_PROGRAM_IDS} (default: every program of the account)`,
      maxItems: MAX_REPORT_PROGRAM_IDS,
    }).optional(),
  }),
  responses: {
    '200': { description: 'The field sets', body: ReportFieldSets },
    '400': er('A program id is malformed or not one of the account (errorIds [invalidRequest])'),
    ...reporter,
  },
});

export const getReportStatus = defineEndpoint({
  method: 'get',
  path: '/report/{reportId}/status',
  operationId: 'getReportStatus',
  summary: 'The status of a report',
  tags,
  security: accountToken,
  params: reportParams,
  responses: { '200': reportStatus('The report status'), ...reporter, ...noReport, ...gone },
});

export const downloadReport = defineEndpoint({
  method: 'get',
  path: '/report/{reportId}',
  operationId: 'downloadReport',
  summary: 'Downloads a COMPLETE report',
  description:
    'The CSV is streamed as it is read. A failure after the download started breaks the connection off, so ' +
    'an incomplete file is never mistaken for a whole one. A report with personal information needs a token ' +
    'with the PII role (403 otherwise), and each download is recorded in the PII access log.',
  tags,
  security: accountToken,
  params: reportParams,
  responses: {
    // routes/report-download.ts sets these headers.
    '200': {
      description: 'The report data',
      headers: {
        'Content-Disposition': {
          description: 'attachment; filename="report-{reportId}.csv"',
          schema: z.string(),
        },
        'Cache-Control': { description: 'no-store', schema: z.literal('no-store') },
      },
      content: { 'text/csv; charset=utf-8': z.string() },
    },
    '202': reportStatus('The report is still being generated (PENDING); poll statusUrl'),
    ...reporter,
    ...noReport,
    ...gone,
    '500': er(
      'The report could not be generated (errorIds [internalServerError], systemErrorMessage "The report ' +
        'could not be generated"), or an internal failure',
    ),
  },
});

export const deleteReport = defineEndpoint({
  method: 'delete',
  path: '/report/{reportId}',
  operationId: 'deleteReport',
  summary: "Deletes a report's data (not in the spec; idempotent)",
  description:
    'Answers the report as it now is (DELETED), also when it had been deleted or purged before; from then ' +
    'on GET of the report and of its status answer 410.',
  tags,
  security: accountToken,
  params: reportParams,
  responses: { '200': reportStatus('The report, DELETED'), ...reporter, ...noReport },
});

export type ReportRequestBody = BodyOf<typeof createVerificationReport>;
export type ReportFieldsQuery = QueryOf<typeof listReportFields>;

export const reportEndpoints = [
  createVerificationReport,
  createReverifyReport,
  listReportFields,
  getReportStatus,
  downloadReport,
  deleteReport,
] as const;
