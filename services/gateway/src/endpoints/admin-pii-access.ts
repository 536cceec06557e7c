import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import { er } from './common';
import { defineEndpoint, type QueryOf } from './define';
import { hexId, integer } from './query';

/**
 * The reports module's PII access log under /rest/admin/v1 (operator token), described once; the route is
 * routes/admin/pii-access.ts, the mapping mapping/report.ts.
 */
export const PiiAccess = z
  .object({
    id: z.string(),
    accountId: z.string().regex(new RegExp(ID_PATTERN)),
    tokenId: z.string().meta({ description: 'The access token that asked.' }),
    reportId: z.string(),
    action: z.string().meta({
      description: 'REQUESTED (a report with personal information) or DOWNLOADED.',
      examples: ['REQUESTED'],
    }),
    reason: z.string().nullable().meta({ description: 'The piiReason given; null when none was recorded.' }),
    occurredAt: z.string().meta({ format: 'date-time', description: 'ISO 8601.' }),
  })
  .meta({ id: 'PiiAccess' });

export const PiiAccessPage = z
  .object({
    accesses: z.array(PiiAccess),
    nextPageToken: z.string().nullable().meta({
      description: 'Pass as pageToken for the next page; null on the last page.',
    }),
  })
  .meta({ id: 'PiiAccessPage' });

export type PiiAccessPageJson = z.input<typeof PiiAccessPage>;

export const listPiiAccess = defineEndpoint({
  method: 'get',
  path: '/pii-access',
  operationId: 'adminListPiiAccess',
  summary: 'The PII access log, newest first',
  description:
    'Every report with personal information that was requested (with its reason) or downloaded, and ' +
    'the access token that did it (`Cache-Control: no-store`).',
  ...adminOperation,
  strictQuery: true,
  query: z.object({
    accountId: hexId({ description: 'Only this account’s entries (default: every account)' }).optional(),
    pageSize: integer({ description: 'Page size (default 100)', min: 1, max: 500, fallback: 100 }).optional(),
    pageToken: pageCursor(
      'nextPageToken of the previous page, as it came (opaque); left out for the first page',
    ).optional(),
  }),
  responses: {
    '200': {
      description: 'One page of the log',
      body: PiiAccessPage,
      headers: { 'Cache-Control': { schema: z.literal('no-store') } },
    },
    '400': er(
      'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
        'a value that does not match its schema, or a pageToken that is not one the reports service gave ' +
        '(a pageToken is opaque: only a nextPageToken reads back) (errorIds [invalidRequest])',
    ),
    ...unauthorized,
  },
});

export type PiiAccessQuery = QueryOf<typeof listPiiAccess>;

export const adminPiiAccessEndpoints = [listPiiAccess] as const;
