import { ID_HEX, ID_PATTERN } from '@eligo/vocabulary';
import { trimmedPattern } from './text';

/**
 * Bulk re-verification (the re-verification endpoints known by name), plus the PII access log of the admin
 * API. The REST v2 report endpoints' bodies are endpoints/report-schemas.ts's (zod).
 */

const id24 = { type: 'string', pattern: ID_PATTERN } as const;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const instant = (description: string) => ({ type: 'string', format: 'date-time', description });
/** REST v2 timestamps: epoch milliseconds, as every other timestamp of the API. */
const epochMs = (description: string) => ({
  type: 'integer',
  description: `${description} Epoch milliseconds.`,
  examples: [1740823200000],
});

export const reportSchemas = {
  ReverifyRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['programId', 'verificationIds'],
    properties: {
      programId: { ...id24, description: 'A program of the account; every verification must belong to it.' },
      verificationIds: {
        type: 'array',
        minItems: 1,
        maxItems: 10000,
        description:
          'Verifications of the program (24 lowercase hex characters each; repeated ones count once). At most ' +
          'ELIGO_REPORTS_REVERIFY_MAX_IDS (10000 by default).',
        items: {
          type: 'string',
          pattern: trimmedPattern(ID_HEX, 'must be a verification id (24 lowercase hex characters)'),
        },
      },
    },
  },
  ReverifyStarted: {
    type: 'object',
    required: ['batchId', 'statusUrl', 'reportUrl'],
    properties: {
      batchId: id24,
      statusUrl: { type: 'string', format: 'uri', description: 'GET it to follow the batch.' },
      reportUrl: {
        type: 'string',
        format: 'uri',
        description: "POST to it to request the batch's report (a report status response).",
      },
    },
  },
  ReverifyStatus: {
    type: 'object',
    required: ['batchId', 'created', 'status', 'totalRecords', 'recordsProcessed'],
    properties: {
      batchId: id24,
      created: epochMs('When the batch was started.'),
      status: { type: 'string', enum: ['PENDING', 'IN_PROGRESS', 'COMPLETE'] },
      totalRecords: { type: 'integer', minimum: 0 },
      recordsProcessed: { type: 'integer', minimum: 0 },
    },
  },
  PiiAccess: {
    type: 'object',
    required: ['id', 'accountId', 'tokenId', 'reportId', 'action', 'reason', 'occurredAt'],
    properties: {
      id: { type: 'string' },
      accountId: id24,
      tokenId: { type: 'string', description: 'The access token that asked.' },
      reportId: { type: 'string' },
      action: {
        type: 'string',
        description: 'REQUESTED (a report with personal information) or DOWNLOADED.',
        examples: ['REQUESTED'],
      },
      reason: { type: ['string', 'null'], description: 'The piiReason given; null when none was recorded.' },
      occurredAt: instant('ISO 8601.'),
    },
  },
  PiiAccessPage: {
    type: 'object',
    required: ['accesses', 'nextPageToken'],
    properties: {
      accesses: { type: 'array', items: ref('PiiAccess') },
      nextPageToken: {
        type: ['string', 'null'],
        description: 'Pass as pageToken for the next page; null on the last page.',
      },
    },
  },
} as const;
