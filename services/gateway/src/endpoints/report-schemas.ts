import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { multilineText } from '../openapi/schemas/text';
import { enumOf, fromStringSchema, matchesFormat, patterned } from './schemas';
import { epochMs } from './schemas-numbers';

/**
 * The bodies of the REST v2 report endpoints (endpoints/report.ts): the report request, the report status
 * response and the columns a report can have.
 */

/** As many program ids as a report request, or a request for the columns, may name. */
export const MAX_REPORT_PROGRAM_IDS = 100;

const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const DAY = new RegExp(DAY_PATTERN, 'u');

/**
 * A calendar day, YYYY-MM-DD: the pattern, then `format: date` as the OpenAPI validator checked it, refused in
 * its words (a value the pattern refused is not judged again: zod runs every check).
 */
const day = (description: string) =>
  patterned(DAY_PATTERN)
    .check(
      z.superRefine((value: string, ctx) => {
        if (DAY.test(value) && !matchesFormat('date', value))
          ctx.addIssue({ code: 'custom', message: 'must match format "date"', input: value });
      }),
    )
    .meta({ format: 'date', description: `${description} YYYY-MM-DD, UTC, inclusive.` });

/** A timestamp of REST v2's answers, with the example they show. */
export const timestamp = (description: string) => epochMs(description).meta({ examples: [1740823200000] });

export const ReportRequest = z
  .strictObject({
    startDate: day('First day.'),
    endDate: day('Last day.'),
    format: enumOf(['CSV']).default('CSV'),
    isPiiIncluded: z
      .boolean()
      .default(false)
      .meta({
        description:
          'Adds personal information columns. Needs a token with the PII role (403 otherwise); every such ' +
          'report is recorded in the PII access log with piiReason.',
      }),
    piiReason: fromStringSchema(multilineText(500))
      .meta({
        description:
          'Why personal information is needed (kept in the PII access log): at most 500 characters, without ' +
          'control characters but tabs and line breaks.',
      })
      .optional(),
    programIds: z
      .array(patterned(ID_PATTERN))
      .max(MAX_REPORT_PROGRAM_IDS)
      .meta({ description: 'Only these programs of the account (default: every program of the account).' })
      .optional(),
    verificationModeInclusion: z
      .enum(['ALL', 'LIVE', 'TEST'])
      .default('ALL')
      .meta({ description: 'Verifications of live-mode programs, of test-mode programs, or both.' }),
  })
  .meta({
    id: 'ReportRequest',
    description: 'A report of the verifications the account started between two dates.',
  });

export const ReportStatusNames = z.enum(['PENDING', 'COMPLETE', 'ERROR', 'DELETED']);

export const ReportStatus = z
  .object({
    id: patterned(ID_PATTERN).meta({ description: 'The reportId.' }),
    status: ReportStatusNames.meta({
      description:
        'PENDING: being generated. COMPLETE: ready at retrievalUrl. ERROR: could not be generated. ' +
        'DELETED: its data was deleted or purged.',
    }),
    statusUrl: z.url().meta({ description: 'GET it to poll the status.' }),
    retrievalUrl: z.string().nullable().meta({
      format: 'uri',
      description: 'GET it to download the report; null until the report is COMPLETE.',
    }),
    created: timestamp('When the report was requested.'),
  })
  .meta({ id: 'ReportStatus', description: 'The report status response.' });

export const ReportField = z
  .object({ name: z.string().meta({ description: 'The column name in the CSV.' }), description: z.string() })
  .meta({ id: 'ReportField' });

export const ReportFieldSet = z
  .object({
    scope: z.string().meta({
      description:
        'STANDARD, PII (only in reports with isPiiIncluded) or METADATA (verification metadata keys).',
      examples: ['STANDARD'],
    }),
    fields: z.array(ReportField),
  })
  .meta({ id: 'ReportFieldSet' });

export const ReportFieldSets = z
  .array(ReportFieldSet)
  .meta({ id: 'ReportFieldSets', description: 'The columns a report of the programs can have, by scope.' });
