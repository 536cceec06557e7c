import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { described, TRIMMED_SPACE_CLASS } from '../openapi/schemas/text';
import { eligibilityColumns } from '../import/eligibility-rows';
import { adminOperation, unauthorized } from './admin-common';
import { er, hexIdParameter } from './common';
import { defineEndpoint, type EndpointResponse } from './define';
import { epochMs, integerValue } from './schemas-numbers';

/**
 * A program's customer eligibility list under /rest/admin/v1/programs/{programId}/eligibility-list: the
 * upload (PUT, streamed CSV or NDJSON, parsed by src/import/eligibility-rows.ts as it arrives), its counts
 * (GET) and its removal (DELETE). The verification service stores the rows as keyed HMACs only; a
 * submission matching a row succeeds instantly (docs/operations.md, "Customer eligibility lists"). Routes:
 * routes/admin/eligibility-lists.ts.
 */

const anyCase = (word: string) =>
  [...word].map((c) => (/[A-Za-z]/.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c)).join('');
const SPACE = `[${TRIMMED_SPACE_CLASS.replace('\\n', '').replace('\\r', '')}]*`;
const COLUMN_NAME = `(?:${eligibilityColumns.map(anyCase).join('|')})`;
const CSV_COLUMN = `(?:"${SPACE}${COLUMN_NAME}${SPACE}"|${COLUMN_NAME})${SPACE}`;
const CSV_HEADER = described(
  `^[${TRIMMED_SPACE_CLASS}]*${CSV_COLUMN}(?:,${SPACE}${CSV_COLUMN})*(?:\\r\\n|\\n|\\r|$)`,
  `must begin with a header row of some of the columns ${eligibilityColumns.join(', ')} (any case and order)`,
);

const count = (description: string) => integerValue().min(0).meta({ description });

export const EligibilityListRow = z
  .strictObject({
    email: z.string().optional(),
    memberId: z.string().optional(),
    employeeId: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    birthDate: z.string().optional().meta({ description: 'YYYY-MM-DD' }),
  })
  .meta({
    id: 'EligibilityListRow',
    description:
      'One NDJSON line (the CSV columns carry the same names). A row needs at least one identifier: ' +
      'email, memberId, employeeId, or firstName + lastName + birthDate together. Values are normalised ' +
      '(trimmed, case-folded, Unicode NFC) and stored only as keyed HMACs.',
  });

export const EligibilityList = z
  .object({
    programId: z.string().regex(new RegExp(ID_PATTERN)),
    version: integerValue()
      .min(1)
      .meta({ description: '1 for the first upload, one more for each later one.' }),
    format: z.enum(['csv', 'ndjson']),
    rows: count('Rows accepted (people).'),
    identifiers: count('Distinct identifiers stored (a row may give several).'),
    created: epochMs().meta({ description: 'When the upload began.' }),
    activated: epochMs().meta({ description: 'When this version replaced the previous one.' }),
  })
  .meta({
    id: 'EligibilityList',
    description: "The active version of a program's eligibility list: no rows.",
  });

export const EligibilityListImportResult = z
  .object({
    list: EligibilityList,
    rowsRead: count('Data rows read (blank lines are not rows).'),
    rowsStored: count('Rows accepted.'),
    rowsRefused: count('Rows refused (see refusals).'),
    duplicates: count('Identifiers given by more than one row: stored once.'),
    refusals: z
      .array(z.object({ line: integerValue(), reason: z.string() }))
      .max(100)
      .meta({
        description: 'The first 100 refused rows, by line of the file (the header is line 1 of a CSV).',
      }),
  })
  .meta({ id: 'EligibilityListImportResult' });

export type EligibilityListJson = z.input<typeof EligibilityList>;
export type EligibilityListImportJson = z.input<typeof EligibilityListImportResult>;

const params = z.object({ programId: hexIdParameter('A program of any account') });
const programNotFound = { shared: 'ProgramNotFound' } satisfies EndpointResponse;
const text = { type: 'string' };

export const adminPutEligibilityList = defineEndpoint({
  ...adminOperation,
  method: 'put',
  path: '/programs/{programId}/eligibility-list',
  operationId: 'adminPutEligibilityList',
  summary: "Uploads the program's eligibility list (CSV or NDJSON), replacing the previous one",
  description:
    'The body is streamed and stored as it arrives, up to ELIGO_GATEWAY_IMPORT_MAX_BYTES (100 MiB by ' +
    'default), into a new version that replaces the active one atomically once the whole file is stored: ' +
    'until then submissions match the previous list, and **a failed upload changes nothing**. A bad row is ' +
    'refused with its line and does not stop the others. CSV: a header row naming some of the columns ' +
    `${eligibilityColumns.join(', ')} in any order. NDJSON: one EligibilityListRow per line, blank lines ` +
    'skipped. A row longer than 64 KiB is refused. Values are never stored: only keyed HMACs of them.',
  params,
  bodyContent: {
    'text/csv': { json: { ...text, pattern: CSV_HEADER, description: 'UTF-8 CSV with a header row' } },
    'application/x-ndjson': {
      json: {
        ...text,
        description: 'One JSON object per line, each as #/components/schemas/EligibilityListRow',
      },
    },
    'application/jsonl': { json: { ...text, description: 'Same as application/x-ndjson' } },
  },
  responses: {
    '200': {
      description: 'The new active version, with the counts of the upload',
      body: EligibilityListImportResult,
    },
    '400': er(
      'The file cannot be read (errorIds [invalidRequest]): no header row, an unknown or repeated column, ' +
        'broken quoting. Nothing was imported; the previous list stays active',
    ),
    ...unauthorized,
    '404': programNotFound,
    '409': er('The list was removed (DELETE) while this upload ran; nothing was imported'),
    '413': er('The file is larger than ELIGO_GATEWAY_IMPORT_MAX_BYTES; nothing was imported'),
    '415': er('Content-Type is not text/csv, application/x-ndjson or application/jsonl in UTF-8'),
  },
});

export const adminGetEligibilityList = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/programs/{programId}/eligibility-list',
  operationId: 'adminGetEligibilityList',
  summary: "The counts and times of the program's active eligibility list",
  params,
  responses: {
    '200': { description: 'The active version', body: EligibilityList },
    ...unauthorized,
    '404': er('No such program, or the program has no eligibility list'),
  },
});

export const adminDeleteEligibilityList = defineEndpoint({
  ...adminOperation,
  method: 'delete',
  path: '/programs/{programId}/eligibility-list',
  operationId: 'adminDeleteEligibilityList',
  summary: "Removes the program's eligibility list: every version and row",
  params,
  responses: {
    '204': { description: 'Removed: submissions no longer match a list' },
    ...unauthorized,
    '404': er('No such program, or the program has no eligibility list'),
  },
});

export const adminEligibilityListEndpoints = [
  adminPutEligibilityList,
  adminGetEligibilityList,
  adminDeleteEligibilityList,
] as const;

/** The NDJSON row is named by the upload's description only: the document states it all the same. */
export const adminEligibilityListNamedSchemas = [EligibilityListRow] as const;
