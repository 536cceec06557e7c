import { security, unauthorized } from './admin.paths';
import { errorResponse, jsonResponse } from './refs';

/** The reports module's PII access log under /rest/admin/v1 (operator token). */
export function adminReportPaths(publicBaseUrl: string) {
  const servers = [{ url: `${publicBaseUrl}/rest/admin/v1`, description: 'Admin API (operator token)' }];
  return {
    '/pii-access': {
      servers,
      get: {
        tags: ['admin'],
        operationId: 'adminListPiiAccess',
        summary: 'The PII access log, newest first',
        description:
          'Every report with personal information that was requested (with its reason) or downloaded, and ' +
          'the access token that did it (`Cache-Control: no-store`).',
        security,
        parameters: [
          {
            name: 'accountId',
            in: 'query',
            description: 'Only this account’s entries (default: every account)',
            schema: { type: 'string', pattern: '^[0-9a-f]{24}$' },
          },
          {
            name: 'pageSize',
            in: 'query',
            description: 'Page size (default 100)',
            schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
          },
          {
            name: 'pageToken',
            in: 'query',
            description: 'nextPageToken of the previous page',
            schema: { type: 'string', maxLength: 1000 },
          },
        ],
        responses: {
          '200': {
            ...jsonResponse('One page of the log', 'PiiAccessPage'),
            headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } },
          },
          '400': errorResponse(
            'A parameter is invalid (errorIds [invalidRequest]), or the service cannot read the page token',
            'SystemErrorMessage',
          ),
          ...unauthorized,
        },
      },
    },
  };
}
