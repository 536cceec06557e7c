import { ID_PATTERN } from '@eligo/vocabulary';
import { security, unauthorized, withBody } from './admin.paths';
import { importColumns } from '../import/organization-rows';
import { errorResponse, idParameter, jsonBody, jsonResponse } from './refs';
import { described, plainText, TRIMMED_SPACE_CLASS } from './schemas/text';

const requestId = idParameter('requestId', 'An add-school request');
const noRequest = errorResponse('No such add-school request', 'SystemErrorMessage');
const decided = errorResponse('The request was already accepted or declined', 'SystemErrorMessage');
const text = { type: 'string' };

/**
 * What a CSV import must start with: a header row naming columns of the import (any case, optionally quoted,
 * whitespace around them ignored), after an optional byte order mark and blank lines. That each column appears
 * once and that externalId, name, type and country are among them, and that the quoting of the rows after it
 * is well formed, is the import's own check (400).
 */
const anyCase = (word: string) =>
  [...word].map((c) => (/[A-Za-z]/.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c)).join('');
// No two runs of whitespace or line breaks are next to one another, and blank lines are one run rather than
// repeated lines (`\r\n` would read as one or two of them): a search of the pattern stays linear in time.
const SPACE = `[${TRIMMED_SPACE_CLASS.replace('\\n', '').replace('\\r', '')}]*`;
const COLUMN_NAME = `(?:${importColumns.map(anyCase).join('|')})`;
const CSV_COLUMN = `(?:"${SPACE}${COLUMN_NAME}${SPACE}"|${COLUMN_NAME})${SPACE}`;
const CSV_HEADER = described(
  `^[${TRIMMED_SPACE_CLASS}]*${CSV_COLUMN}(?:,${SPACE}${CSV_COLUMN})*(?:\\r\\n|\\n|\\r|$)`,
  `must begin with a header row of the columns ${importColumns.join(', ')} (any case and order)`,
);

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
            'text/csv': {
              schema: { ...text, pattern: CSV_HEADER, description: 'UTF-8 CSV with a header row' },
            },
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
            'The CSV cannot be read on (errorIds [invalidRequest]): no header row (an empty file), a header ' +
              'column that is unknown or repeated, a required column (externalId, name, type, country) ' +
              'missing, or broken quoting in any row. systemErrorMessage names the line and what was imported ' +
              'before it; send the corrected file again. An NDJSON file is never refused as a whole: each bad ' +
              'line is a rejected row',
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
          { name: 'programId', in: 'query', schema: { type: 'string', pattern: ID_PATTERN } },
          {
            name: 'pageSize',
            in: 'query',
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
          '200': jsonResponse('One page of requests', 'AddSchoolRequestPage'),
          '400': errorResponse(
            'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
              'a value that does not match its schema, or a pageToken that is not one the organizations service gave ' +
              '(a pageToken is opaque: only a nextPageToken reads back) (errorIds [invalidRequest])',
            'ErrorResponse',
          ),
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
          '400': errorResponse(
            'The body does not match its schema, or the organizations service refuses a value the schema cannot ' +
              'judge (errorIds [invalidRequest]; systemErrorMessage names the field): a domain that does not ' +
              'end in a registrable name under a top-level domain of the Public Suffix List (ICANN section), ' +
              'a name without a letter or digit',
            'ErrorResponse',
          ),
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
