import { ID_PATTERN } from '@eligo/vocabulary';
import { errorResponse, idParameter, jsonBody, jsonResponse, ref } from './refs';

const tags = ['report'];
const gone = errorResponse(
  'The report was deleted or purged (systemErrorMessage "The report was deleted or purged")',
  'SystemErrorMessage',
);
const security = [{ bearerToken: [] }, { oauthClientCredentials: [] }];
const reportId = idParameter('reportId', 'A report of the calling account');
const reportStatus = (description: string) => jsonResponse(description, 'ReportStatus');
export const missingRole = (role: string) => ({
  '403': errorResponse(`The access token does not have the ${role} role`, 'SystemErrorMessage'),
});
const reporter = {
  '401': ref('responses', 'Unauthorized'),
  ...missingRole('REPORTER'),
  '503': ref('responses', 'ServiceUnavailable'),
};
const noReport = {
  '404': errorResponse(
    'No such report for this caller; a report of another account, and a malformed reportId, are answered ' +
      'the same way',
    'SystemErrorMessage',
  ),
};

/**
 * REST v2 reports (the spec's "Reports and conversions" table): an account token with the REPORTER role on
 * its own reports. DELETE is an addition to the spec, so that integrators can remove a report's data.
 */
export const reportPaths = {
  '/report/verification': {
    post: {
      tags,
      operationId: 'createVerificationReport',
      summary: 'Requests a report of the verifications started between two dates',
      description:
        'The report is generated in the background: poll statusUrl, then GET retrievalUrl. With ' +
        'isPiiIncluded the token also needs the PII role, and the request is recorded in the PII access log ' +
        'with piiReason.',
      security,
      requestBody: jsonBody('ReportRequest'),
      responses: {
        '202': reportStatus('The report, PENDING'),
        '400': errorResponse(
          'The body does not match ReportRequest, or the dates or program ids are refused (errorIds ' +
            '[invalidRequest], e.g. an end before the start or a program of another account)',
          'ErrorResponse',
        ),
        '413': ref('responses', 'PayloadTooLarge'),
        ...reporter,
        '403': errorResponse(
          'The access token does not have the REPORTER role, or asks for personal information without the ' +
            'PII role',
          'SystemErrorMessage',
        ),
      },
    },
  },
  '/report/reverify/{batchId}': {
    parameters: [idParameter('batchId', 'A re-verification batch of the calling account')],
    post: {
      tags,
      operationId: 'createReverifyReport',
      summary: 'Requests the report of a bulk re-verification batch',
      security,
      responses: {
        '202': reportStatus('The report, PENDING'),
        ...reporter,
        '404': errorResponse(
          'No such batch for this caller (also for a malformed batchId)',
          'SystemErrorMessage',
        ),
      },
    },
  },
  '/report/fields': {
    get: {
      tags,
      operationId: 'listReportFields',
      summary: 'The columns a report can have, by scope',
      security,
      parameters: [
        {
          name: 'programIds',
          in: 'query',
          description:
            'Programs of the account, repeated (programIds=a&programIds=b) and/or comma-separated, at most ' +
            '100 (default: every program of the account)',
          schema: { type: 'array', maxItems: 100, items: { type: 'string', pattern: ID_PATTERN } },
          style: 'form',
          explode: true,
        },
      ],
      responses: {
        '200': jsonResponse('The field sets', 'ReportFieldSets'),
        '400': errorResponse(
          'A program id is malformed or not one of the account (errorIds [invalidRequest])',
          'ErrorResponse',
        ),
        ...reporter,
      },
    },
  },
  '/report/{reportId}/status': {
    parameters: [reportId],
    get: {
      tags,
      operationId: 'getReportStatus',
      summary: 'The status of a report',
      security,
      responses: { '200': reportStatus('The report status'), ...reporter, ...noReport, '410': gone },
    },
  },
  '/report/{reportId}': {
    parameters: [reportId],
    get: {
      tags,
      operationId: 'downloadReport',
      summary: 'Downloads a COMPLETE report',
      description:
        'The CSV is streamed as it is read. A failure after the download started breaks the connection ' +
        'off, so an incomplete file is never mistaken for a whole one. A report with personal information ' +
        'needs a token with the PII role (403 otherwise), and each download is recorded in the PII access log.',
      security,
      responses: {
        '200': {
          description: 'The report data',
          headers: {
            'Content-Disposition': {
              description: 'attachment; filename="report-{reportId}.csv"',
              schema: { type: 'string' },
            },
            'Cache-Control': { description: 'no-store', schema: { type: 'string', const: 'no-store' } },
          },
          content: { 'text/csv; charset=utf-8': { schema: { type: 'string' } } },
        },
        '202': reportStatus('The report is still being generated (PENDING); poll statusUrl'),
        ...reporter,
        ...noReport,
        '410': gone,
        '500': errorResponse(
          'The report could not be generated (errorIds [internalServerError], systemErrorMessage "The ' +
            'report could not be generated"), or an internal failure',
          'ErrorResponse',
        ),
      },
    },
    delete: {
      tags,
      operationId: 'deleteReport',
      summary: "Deletes a report's data (not in the spec; idempotent)",
      description:
        'Answers the report as it now is (DELETED), also when it had been deleted or purged before; from then on ' +
        'GET of the report and of its status answer 410.',
      security,
      responses: { '200': reportStatus('The report, DELETED'), ...reporter, ...noReport },
    },
  },
} as const;
