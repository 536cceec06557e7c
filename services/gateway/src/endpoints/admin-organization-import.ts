import { z } from 'zod';
import { MAX_REPORTED_ERRORS } from '../import/import-limits';
import { importColumns } from '../import/organization-rows';
import { described, plainText, TRIMMED_SPACE_CLASS, trimmedName } from '../openapi/schemas/text';
import { adminOperation, unauthorized } from './admin-common';
import { countryCode, importDomains, organizationType } from './admin-organization-schemas';
import { er } from './common';
import { defineEndpoint } from './define';
import { fromStringSchema } from './schemas';
import { orNullTypeFirst } from './schemas-nullable';
import { integerValue } from './schemas-numbers';

/**
 * POST /organizations, the catalog's bulk import (routes/admin/organizations.ts). Its body is a CSV or NDJSON
 * file the import streams and checks row by row as it arrives (src/import): the definition states the media
 * types as JSON Schema; no JSON body is read, so none is checked here.
 */

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

/** plainText or null, refused in Ajv's words (the tests hold the row to the document's validator). */
const textOrNull = (max: number) => orNullTypeFirst(fromStringSchema(plainText(max)));

/**
 * One NDJSON line, as documentation: the import reads its lines itself (import/organization-rows.ts) and the
 * organizations service judges the values, each bad row being reported with its line.
 */
export const OrganizationImportRow = z
  .strictObject({
    externalId: fromStringSchema(trimmedName(200)).meta({
      description: 'Your key (trimmed, 1 to 200 characters): importing it again updates the organization.',
    }),
    name: fromStringSchema(trimmedName(200)).meta({
      description: 'Trimmed; it must contain a letter or digit.',
    }),
    type: organizationType.meta({ description: 'Any case.' }),
    country: countryCode('ISO 3166-1 alpha-2, any case.'),
    domains: importDomains().optional(),
    city: textOrNull(100).optional(),
    state: textOrNull(100).optional(),
    loginUrl: textOrNull(2048)
      .meta({
        description:
          "The organization's single sign-on page: an absolute https URL of at most 2048 characters; " +
          'empty or null for none. Another value rejects the row.',
      })
      .optional(),
  })
  .meta({
    id: 'OrganizationImportRow',
    description:
      'One NDJSON line (the CSV columns carry the same names; there, domains are separated by ";"). ' +
      'externalId, name, type and country are required.',
  });

export const OrganizationImportResult = z
  .object({
    received: integerValue().meta({ description: 'Data rows read (blank lines are not rows).' }),
    created: integerValue(),
    updated: integerValue(),
    unchanged: integerValue().meta({
      description: 'Rows identical to what the catalog holds under their key.',
    }),
    rejected: integerValue(),
    errors: z
      .array(z.object({ line: integerValue(), message: z.string() }))
      .max(MAX_REPORTED_ERRORS)
      .meta({
        description: `The first ${MAX_REPORTED_ERRORS} rejected rows, by line of the file (the header is line 1 of a CSV).`,
      }),
  })
  .meta({ id: 'OrganizationImportResult' });

export type ImportSummaryJson = z.input<typeof OrganizationImportResult>;

const text = { type: 'string' };

export const importOrganizations = defineEndpoint({
  method: 'post',
  path: '/organizations',
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
  ...adminOperation,
  bodyContent: {
    'text/csv': { json: { ...text, pattern: CSV_HEADER, description: 'UTF-8 CSV with a header row' } },
    'application/x-ndjson': {
      json: {
        ...text,
        description: 'One JSON object per line, each as #/components/schemas/OrganizationImportRow',
      },
    },
    'application/jsonl': { json: { ...text, description: 'Same as application/x-ndjson' } },
  },
  responses: {
    '200': {
      description: 'What the import did, with the first rejected rows',
      body: OrganizationImportResult,
    },
    '400': er(
      'The CSV cannot be read on (errorIds [invalidRequest]): no header row (an empty file), a header ' +
        'column that is unknown or repeated, a required column (externalId, name, type, country) ' +
        'missing, or broken quoting in any row. systemErrorMessage names the line and what was imported ' +
        'before it; send the corrected file again. An NDJSON file is never refused as a whole: each bad ' +
        'line is a rejected row',
    ),
    ...unauthorized,
    '413': er(
      'The file is larger than ELIGO_GATEWAY_IMPORT_MAX_BYTES; systemErrorMessage says what was ' +
        'imported before the limit',
    ),
    '415': er('Content-Type is not text/csv, application/x-ndjson or application/jsonl in UTF-8'),
  },
});
