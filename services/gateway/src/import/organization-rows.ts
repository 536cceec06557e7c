import type { Readable } from 'node:stream';
import { organizationsOrganizationV1 } from '@eligo/proto';
import { csvRecords, headerColumns, ImportFileError, ndjsonLines } from './import-file';

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

/** The CSV header -> the record keys (headerColumns); a missing required column refuses the file too. */
export function csvColumns(header: readonly string[]): ImportColumn[] {
  const columns = headerColumns(header, importColumns);
  const missing = requiredColumns.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new ImportFileError(`line 1: the header lacks required column(s) ${missing.join(', ')}`);
  return columns;
}

/** CSV rows as the body streams (csvRecords); a record with the wrong number of fields is a rejected row. */
export async function* csvRows(source: Readable): AsyncGenerator<ParsedRow> {
  for await (const read of csvRecords(source, csvColumns)) {
    yield 'shortOrLong' in read
      ? { line: read.line, rejection: 'the row does not have one value per header column' }
      : csvRecordToRow(read.record, read.line);
  }
}

/** NDJSON rows: one JSON object per physical line; blank lines are skipped, a bad line is a rejected row. */
export async function* ndjsonRows(source: AsyncIterable<Buffer>): AsyncGenerator<ParsedRow> {
  for await (const read of ndjsonLines(source)) {
    if ('rejection' in read) yield read;
    else {
      const row = jsonLineToRow(read.text, read.line);
      if (row) yield row;
    }
  }
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
