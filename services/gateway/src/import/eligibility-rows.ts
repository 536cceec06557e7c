import type { Readable } from 'node:stream';
import type { verificationEligibilityListV1 } from '@eligo/proto';
import { csvRecords, headerColumns, ndjsonLines } from './import-file';

type ListRow = verificationEligibilityListV1.EligibilityListRow;

/**
 * The rows of an eligibility list file (PUT .../eligibility-list), read as the body streams: the gateway
 * checks only the file's shape (columns, JSON, types); what the values must be (an email, a real date, names
 * with a birth date) is the verification service's rule, which refuses bad rows with their line the same way.
 */
export const eligibilityColumns = [
  'email',
  'memberId',
  'employeeId',
  'firstName',
  'lastName',
  'birthDate',
] as const;
type Column = (typeof eligibilityColumns)[number];
const allowed = eligibilityColumns.join(', ');

const row = (line: number, fields: Partial<Record<Column, string>>, refusal = ''): ListRow => ({
  line,
  email: fields.email ?? '',
  memberId: fields.memberId ?? '',
  employeeId: fields.employeeId ?? '',
  firstName: fields.firstName ?? '',
  lastName: fields.lastName ?? '',
  birthDate: fields.birthDate ?? '',
  refusal,
});
const refused = (line: number, refusal: string): ListRow => row(line, {}, refusal);

/** The CSV header -> the record keys, in any case; an unknown or repeated column refuses the whole file. */
export function eligibilityCsvColumns(header: readonly string[]): Column[] {
  return headerColumns(header, eligibilityColumns);
}

/**
 * CSV rows pulled one at a time (backpressure: the upload pauses while a batch is stored). Broken quoting
 * or an oversized record stops the file (ImportFileError); a record with the wrong number of fields is a
 * refused row. Lines are physical lines of the file, the header being line 1.
 */
export async function* eligibilityCsvRows(source: Readable): AsyncGenerator<ListRow> {
  for await (const read of csvRecords(source, eligibilityCsvColumns)) {
    yield 'shortOrLong' in read
      ? refused(read.line, 'the row does not have one value per header column')
      : row(read.line, read.record);
  }
}

/** NDJSON rows: one JSON object per line with the CSV's column names as keys; blank lines are skipped. */
export async function* eligibilityNdjsonRows(source: AsyncIterable<Buffer>): AsyncGenerator<ListRow> {
  for await (const read of ndjsonLines(source)) {
    yield 'rejection' in read ? refused(read.line, read.rejection) : jsonLineToListRow(read.text, read.line);
  }
}

/** One NDJSON line -> a row, or the row refused for its shape. */
export function jsonLineToListRow(text: string, line: number): ListRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused(line, 'not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return refused(line, 'not a JSON object');
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).find((k) => !(eligibilityColumns as readonly string[]).includes(k));
  if (unknown !== undefined) return refused(line, `unexpected property ${unknown} (allowed: ${allowed})`);
  const bad = eligibilityColumns.find((c) => fields[c] != null && typeof fields[c] !== 'string');
  if (bad) return refused(line, `${bad} must be a string`);
  return row(line, fields as Partial<Record<Column, string>>);
}
