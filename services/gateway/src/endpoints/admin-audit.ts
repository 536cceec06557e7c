import { z } from 'zod';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import { er } from './common';
import { defineEndpoint, type QueryOf } from './define';
import { integer, text } from './query';
import { stringMap } from './schemas-maps';
import { integerValue } from './schemas-numbers';

/**
 * The audit log of the admin API under /rest/admin/v1/audit, described once (docs/operations.md, "The audit
 * log"): every call that changes something (POST, PUT, PATCH, DELETE), by the operator token or a staff
 * member, and the console's sign-ins and sign-outs, failed ones included. The routes are
 * routes/admin/audit.ts; entries are written by staff/audit-hook.ts and routes/console-session.ts.
 */

export const AuditEntry = z
  .object({
    id: z.string().meta({ description: 'Increasing with time (a decimal number, as a string).' }),
    at: z.string().meta({ format: 'date-time', description: 'When the answer was sent. ISO 8601.' }),
    actorKind: z.enum(['operator', 'staff']).meta({
      description: 'operator: the operator token; staff: a staff member’s session (or a sign-in).',
    }),
    actorId: z
      .string()
      .nullable()
      .meta({
        description:
          'The staff member (staffId); null for the operator token, and for a failed sign-in whose email ' +
          'named no one.',
      }),
    action: z.string().meta({
      description:
        'The operationId of the call (adminDecideReview, ...); createConsoleSession and ' +
        'deleteConsoleSession for the console’s sign-in and sign-out.',
      examples: ['adminDecideReview'],
    }),
    method: z.string().meta({ examples: ['POST'] }),
    route: z.string().meta({
      description: 'The route template, never the path: `/rest/admin/v1/reviews/{reviewId}/decision`.',
    }),
    targets: stringMap().meta({
      description:
        'The path parameters by name (e.g. reviewId), and the staffId a creation made: ids only, never a ' +
        'body, a query or personal data.',
    }),
    status: integerValue().meta({ description: 'The HTTP status of the answer (401 for a failed sign-in).' }),
  })
  .meta({ id: 'AuditEntry' });

export const AuditPage = z
  .object({
    entries: z.array(AuditEntry),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as cursor for the next page; null on the last page.' }),
  })
  .meta({ id: 'AuditPage' });

const ACTOR = '^(operator|[0-9a-f]{24})$';
const ACTION = '^[A-Za-z][A-Za-z0-9]{0,99}$';
/** RFC 3339 as JSON Schema's date-time states it; the route also refuses a date that does not exist. */
const DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})$';

const dateTime = (description: string) =>
  text({
    description: `${description} (RFC 3339, e.g. 2025-03-01T10:00:00Z)`,
    maxLength: 40,
    schema: { type: 'string', format: 'date-time', maxLength: 40, pattern: DATE_TIME },
    pattern: { source: DATE_TIME, message: 'must be an RFC 3339 date-time, e.g. 2025-03-01T10:00:00Z' },
  });

/** The filters the list and the export share. */
const filters = {
  actor: text({
    description: 'Only this actor: a staffId, or `operator` for the operator token',
    maxLength: 24,
    schema: { type: 'string', pattern: ACTOR },
    pattern: { source: ACTOR, message: 'must be a staffId (24 lowercase hex characters) or operator' },
  }).optional(),
  action: text({
    description: 'Only this action (an operationId, e.g. adminDecideReview)',
    maxLength: 100,
    schema: { type: 'string', pattern: ACTION },
    pattern: { source: ACTION, message: 'must be an operationId: letters and digits, a letter first' },
  }).optional(),
  from: dateTime('Only entries at or after this instant').optional(),
  to: dateTime('Only entries before this instant').optional(),
};

const badQuery = er(
  'A query parameter the operation does not have, an empty value (leave the parameter out instead), a value ' +
    'that does not match its schema, or a cursor this list did not give (errorIds [invalidRequest])',
);

export const adminListAudit = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/audit',
  operationId: 'adminListAudit',
  summary: 'The audit log of the admin API, newest first, one page at a time',
  description:
    'Every call of the admin API that changes something (POST, PUT, PATCH, DELETE), whoever made it and ' +
    'whatever its status, and the console’s sign-ins and sign-outs (failed sign-ins too, without the email). ' +
    '`Cache-Control: no-store`.',
  strictQuery: true,
  query: z.object({
    ...filters,
    limit: integer({ description: 'Page size (default 100)', min: 1, max: 500, fallback: 100 }).optional(),
    cursor: pageCursor(
      'nextCursor of the previous page, as it came (opaque); left out for the first page',
    ).optional(),
  }),
  responses: {
    '200': {
      description: 'One page of the log',
      body: AuditPage,
      headers: { 'Cache-Control': { schema: z.literal('no-store') } },
    },
    '400': badQuery,
    ...unauthorized,
  },
});

export const adminExportAudit = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/audit/export',
  operationId: 'adminExportAudit',
  summary: 'The audit log as NDJSON, oldest first',
  description:
    'Every entry the filters keep, one AuditEntry JSON object a line, streamed as it is read (no page size: ' +
    'the whole log if no filter is given). `Cache-Control: no-store`.',
  strictQuery: true,
  query: z.object(filters),
  responses: {
    '200': {
      description: 'One AuditEntry a line',
      content: { 'application/x-ndjson': AuditEntry },
      headers: { 'Cache-Control': { schema: z.literal('no-store') } },
    },
    '400': er(
      'A query parameter the operation does not have, an empty value (leave the parameter out instead), or ' +
        'a value that does not match its schema (errorIds [invalidRequest])',
    ),
    ...unauthorized,
  },
});

export type AuditListQuery = QueryOf<typeof adminListAudit>;
export type AuditExportQuery = QueryOf<typeof adminExportAudit>;
export type AuditEntryJson = z.input<typeof AuditEntry>;
export type AuditPageJson = z.input<typeof AuditPage>;

export const adminAuditEndpoints = [adminListAudit, adminExportAudit] as const;
