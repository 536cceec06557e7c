import { ID_HEX, ID_PATTERN } from '@eligo/vocabulary';
import { multilineText, trimmedPattern } from './text';
/**
 * Reports, conversions and bulk re-verification (the spec's "Reports and conversions" table and the
 * re-verification endpoints known by name), plus the PII access log of the admin API.
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
const day = (description: string) => ({
  type: 'string',
  format: 'date',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: `${description} YYYY-MM-DD, UTC, inclusive.`,
});

export const reportSchemas = {
  ReportRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['startDate', 'endDate'],
    description: 'A report of the verifications the account started between two dates.',
    properties: {
      startDate: day('First day.'),
      endDate: day('Last day.'),
      format: { type: 'string', enum: ['CSV'], default: 'CSV' },
      isPiiIncluded: {
        type: 'boolean',
        default: false,
        description:
          'Adds personal information columns. Needs a token with the PII role (403 otherwise); every such ' +
          'report is recorded in the PII access log with piiReason.',
      },
      piiReason: {
        ...multilineText(500),
        description:
          'Why personal information is needed (kept in the PII access log): at most 500 characters, without ' +
          'control characters but tabs and line breaks.',
      },
      programIds: {
        type: 'array',
        maxItems: 100,
        items: id24,
        description: 'Only these programs of the account (default: every program of the account).',
      },
      verificationModeInclusion: {
        type: 'string',
        enum: ['ALL', 'LIVE', 'TEST'],
        default: 'ALL',
        description: 'Verifications of live-mode programs, of test-mode programs, or both.',
      },
    },
  },
  ReportStatus: {
    type: 'object',
    description: 'The report status response.',
    required: ['id', 'status', 'statusUrl', 'retrievalUrl', 'created'],
    properties: {
      id: { ...id24, description: 'The reportId.' },
      status: {
        type: 'string',
        enum: ['PENDING', 'COMPLETE', 'ERROR', 'DELETED'],
        description:
          'PENDING: being generated. COMPLETE: ready at retrievalUrl. ERROR: could not be generated. ' +
          'DELETED: its data was deleted or purged.',
      },
      statusUrl: { type: 'string', format: 'uri', description: 'GET it to poll the status.' },
      retrievalUrl: {
        type: ['string', 'null'],
        format: 'uri',
        description: 'GET it to download the report; null until the report is COMPLETE.',
      },
      created: epochMs('When the report was requested.'),
    },
  },
  ReportField: {
    type: 'object',
    required: ['name', 'description'],
    properties: {
      name: { type: 'string', description: 'The column name in the CSV.' },
      description: { type: 'string' },
    },
  },
  ReportFieldSet: {
    type: 'object',
    required: ['scope', 'fields'],
    properties: {
      scope: {
        type: 'string',
        description:
          'STANDARD, PII (only in reports with isPiiIncluded) or METADATA (verification metadata keys).',
        examples: ['STANDARD'],
      },
      fields: { type: 'array', items: ref('ReportField') },
    },
  },
  ReportFieldSets: {
    type: 'array',
    description: 'The columns a report of the programs can have, by scope.',
    items: ref('ReportFieldSet'),
  },
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
