import { organizationsOrganizationV1 } from '@eligo/proto';

type OrganizationInput = organizationsOrganizationV1.OrganizationInput;

/**
 * One row of an organization import file: what it supplies, or why the gateway refused it itself (wrong
 * shape, wrong types). Values are checked by the organizations service, which reports bad rows the same way.
 */
export type ParsedRow =
  { line: number; organization: OrganizationInput } | { line: number; rejection: string };

/** The file's columns (CSV header) or keys (NDJSON), in the order the documentation lists them. */
export const importColumns = [
  'externalId',
  'name',
  'type',
  'country',
  'domains',
  'city',
  'state',
  'loginUrl',
] as const;
export type ImportColumn = (typeof importColumns)[number];
const requiredColumns: readonly ImportColumn[] = ['externalId', 'name', 'type', 'country'];
const allowed = importColumns.join(', ');

/** The file cannot be read on: the import stops and says where. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

/**
 * The CSV header -> the record keys. Column names match in any case (spreadsheets capitalise); an unknown,
 * repeated or missing required column refuses the whole file, since every row would be read wrongly.
 */
export function csvColumns(header: readonly string[]): ImportColumn[] {
  const byLowerCase = new Map(importColumns.map((c) => [c.toLowerCase(), c]));
  const columns = header.map((raw) => {
    const column = byLowerCase.get(raw.trim().toLowerCase());
    if (!column) throw new ImportFileError(`line 1: unknown column "${raw}" (allowed: ${allowed})`);
    return column;
  });
  const repeated = columns.find((c, i) => columns.indexOf(c) !== i);
  if (repeated) throw new ImportFileError(`line 1: column ${repeated} appears twice`);
  const missing = requiredColumns.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new ImportFileError(`line 1: the header lacks required column(s) ${missing.join(', ')}`);
  return columns;
}

/** A CSV record (every value a trimmed string) -> a row; domains are separated by `;`. */
export function csvRecordToRow(record: Partial<Record<ImportColumn, string>>, line: number): ParsedRow {
  return toRow(
    {
      ...record,
      domains: record.domains === undefined ? undefined : record.domains.split(';'),
    },
    line,
  );
}

/** One NDJSON line -> a row; undefined for a blank line (skipped, like CSV's empty lines). */
export function jsonLineToRow(text: string, line: number): ParsedRow | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { line, rejection: 'not valid JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { line, rejection: 'not a JSON object' };
  const unknown = Object.keys(value).find((k) => !(importColumns as readonly string[]).includes(k));
  if (unknown !== undefined)
    return { line, rejection: `unexpected property ${unknown} (allowed: ${allowed})` };
  return toRow(value as Record<string, unknown>, line);
}

function toRow(fields: Record<string, unknown>, line: number): ParsedRow {
  for (const column of importColumns) {
    const value = fields[column];
    if (column === 'domains') {
      const ok = value == null || (Array.isArray(value) && value.every((d) => typeof d === 'string'));
      if (!ok) return { line, rejection: 'domains must be an array of strings' };
    } else if (value != null && typeof value !== 'string') {
      return { line, rejection: `${column} must be a string` };
    }
  }
  const text = (column: ImportColumn) => ((fields[column] as string | null | undefined) ?? '').trim();
  // Checked here because it is the file format's rule: without these the row names nothing to store.
  const missing = requiredColumns.find((c) => text(c) === '');
  if (missing) return { line, rejection: `${missing} is required` };
  const domains = ((fields.domains as string[] | null | undefined) ?? [])
    .map((d) => d.trim())
    .filter(Boolean);
  return {
    line,
    organization: organizationsOrganizationV1.OrganizationInput.fromPartial({
      externalKey: text('externalId'),
      name: text('name'),
      type: text('type'),
      country: text('country'),
      domains,
      city: text('city'),
      state: text('state'),
      loginUrl: text('loginUrl'),
    }),
  };
}
