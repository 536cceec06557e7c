import { security, unauthorized, withBody } from './admin.paths';
import { errorResponse, idParameter, jsonBody, jsonResponse } from './refs';

const requestId = idParameter('requestId', 'An add-school request');
const noRequest = errorResponse('No such add-school request', 'SystemErrorMessage');
const decided = errorResponse('The request was already accepted or declined', 'SystemErrorMessage');
const text = { type: 'string' };

/** The organization catalog and the add-school review queue under /rest/admin/v1 (operator token). */
export function adminOrganizationPaths(publicBaseUrl: string) {
  const servers = [{ url: `${publicBaseUrl}/rest/admin/v1`, description: 'Admin API (operator token)' }];
  return {
    '/organizations': {
      servers,
      post: {
        tags: ['admin'],
        operationId: 'adminImportOrganizations',
        summary: 'Adds or updates catalog organizations from a CSV or NDJSON file',
        description:
          'The body is streamed and stored in batches of 500 rows as it arrives, up to ' +
          'ELIGO_GATEWAY_IMPORT_MAX_BYTES (100 MiB by default). Rows are matched by externalId: a known one is ' +
          'updated, an identical one left unchanged, so **importing is idempotent and a failed import can ' +
          'simply be sent again**. A bad row is reported with its line and does not stop the others. CSV: a ' +
          'header row naming the columns externalId, name, type, country (required) and domains, city, ' +
          'state, loginUrl (optional), in any order; domains separated by ";"; loginUrl, the single sign-on ' +
          'page, an absolute https URL. NDJSON: one OrganizationImportRow per line, ' +
          'blank lines skipped. A row longer than 64 KiB is refused.',
        security,
        requestBody: {
          required: true,
          content: {
            'text/csv': { schema: { ...text, description: 'UTF-8 CSV with a header row' } },
            'application/x-ndjson': {
              schema: {
                ...text,
                description: 'One JSON object per line, each as #/components/schemas/OrganizationImportRow',
              },
            },
            'application/jsonl': { schema: { ...text, description: 'Same as application/x-ndjson' } },
          },
        },
        responses: {
          '200': jsonResponse(
            'What the import did, with the first rejected rows',
            'OrganizationImportResult',
          ),
          '400': errorResponse(
            'The file cannot be read on: a CSV header with an unknown, repeated or missing required column, ' +
              'broken CSV quoting, or an empty file (errorIds [invalidRequest]). systemErrorMessage names the ' +
              'line and what was imported before it; send the corrected file again',
            'ErrorResponse',
          ),
          ...unauthorized,
          '413': errorResponse(
            'The file is larger than ELIGO_GATEWAY_IMPORT_MAX_BYTES; systemErrorMessage says what was ' +
              'imported before the limit',
            'ErrorResponse',
          ),
          '415': errorResponse(
            'Content-Type is not text/csv, application/x-ndjson or application/jsonl in UTF-8',
            'ErrorResponse',
          ),
        },
      },
    },
    '/organizations/{organizationId}': {
      servers,
      parameters: [
        {
          name: 'organizationId',
          in: 'path',
          required: true,
          description: 'The organization id (a positive integer; any other value is answered 404)',
          schema: { type: 'integer', minimum: 1 },
        },
      ],
      get: {
        tags: ['admin'],
        operationId: 'adminGetOrganization',
        summary: 'One catalog organization with its domains and external key',
        security,
        responses: {
          '200': jsonResponse('The organization', 'OrganizationDetail'),
          ...unauthorized,
          '404': errorResponse('No such organization (errorIds [noOrganization])', 'ErrorResponse'),
        },
      },
    },
    '/addSchoolRequests': {
      servers,
      get: {
        tags: ['admin'],
        operationId: 'adminListAddSchoolRequests',
        summary: 'Add-school requests, newest first',
        security,
        parameters: [
          {
            name: 'status',
            in: 'query',
            description: 'Only requests in this state (default: all)',
            schema: { type: 'string', enum: ['PENDING', 'ACCEPTED', 'DECLINED'] },
          },
          { name: 'programId', in: 'query', schema: { type: 'string', pattern: '^[0-9a-f]{24}$' } },
          {
            name: 'pageSize',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
          },
          { name: 'pageToken', in: 'query', description: 'nextPageToken of the previous page', schema: text },
        ],
        responses: {
          '200': jsonResponse('One page of requests', 'AddSchoolRequestPage'),
          '400': errorResponse('A query parameter is invalid (errorIds [invalidRequest])', 'ErrorResponse'),
          ...unauthorized,
        },
      },
    },
    '/addSchoolRequests/{requestId}/accept': {
      servers,
      parameters: [requestId],
      post: {
        tags: ['admin'],
        operationId: 'adminAcceptAddSchoolRequest',
        summary: 'Adds the requested school to the catalog and closes the request',
        security,
        requestBody: jsonBody('AddSchoolAcceptRequest'),
        responses: {
          '200': jsonResponse('The closed request and the new organization', 'AddSchoolAccepted'),
          ...withBody,
          ...unauthorized,
          '404': noRequest,
          '409': decided,
        },
      },
    },
    '/addSchoolRequests/{requestId}/decline': {
      servers,
      parameters: [requestId],
      post: {
        tags: ['admin'],
        operationId: 'adminDeclineAddSchoolRequest',
        summary: 'Closes the request without adding the school',
        security,
        requestBody: jsonBody('AddSchoolDeclineRequest', false),
        responses: {
          '200': jsonResponse('The closed request', 'AddSchoolDeclined'),
          ...withBody,
          ...unauthorized,
          '404': noRequest,
          '409': decided,
        },
      },
    },
  };
}
