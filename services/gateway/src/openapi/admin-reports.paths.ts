import { ID_PATTERN } from '@eligo/vocabulary';
import { security, unauthorized } from './admin.paths';
import { errorResponse, jsonResponse } from './refs';
import { plainText } from './schemas/text';

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
            schema: { type: 'string', pattern: ID_PATTERN },
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
            description:
              'nextPageToken of the previous page, as it came (opaque); left out for the first page',
            schema: plainText(1000, 1),
          },
        ],
        responses: {
          '200': {
            ...jsonResponse('One page of the log', 'PiiAccessPage'),
            headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } },
          },
          '400': errorResponse(
            'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
              'a value that does not match its schema, or a pageToken that is not one the reports service gave ' +
              '(a pageToken is opaque: only a nextPageToken reads back) (errorIds [invalidRequest])',
            'ErrorResponse',
          ),
          ...unauthorized,
        },
      },
    },
  };
}
