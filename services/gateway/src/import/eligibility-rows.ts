import { pipeline, type Readable } from 'node:stream';
import type { verificationEligibilityListV1 } from '@eligo/proto';
import { CsvError, parse } from 'csv-parse';
import { lines, MAX_ROW_BYTES } from './import-stream';
import { ImportFileError } from './organization-rows';

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
  const byLowerCase = new Map(eligibilityColumns.map((c) => [c.toLowerCase(), c]));
  const columns = header.map((raw) => {
    const column = byLowerCase.get(raw.trim().toLowerCase());
    if (!column) throw new ImportFileError(`line 1: unknown column "${raw}" (allowed: ${allowed})`);
    return column;
  });
  const repeated = columns.find((c, i) => columns.indexOf(c) !== i);
  if (repeated) throw new ImportFileError(`line 1: column ${repeated} appears twice`);
  return columns;
}

/**
 * CSV rows pulled one at a time (backpressure: the upload pauses while a batch is stored). Broken quoting
 * or an oversized record stops the file (ImportFileError); a record with the wrong number of fields is a
 * refused row. Lines are physical lines of the file, the header being line 1.
 */
export async function* eligibilityCsvRows(source: Readable): AsyncGenerator<ListRow> {
  let line = 0;
  const parser = parse({
    columns: (header: string[]) => {
      line = parser.info.lines + 1;
      return eligibilityCsvColumns(header);
    },
    trim: true,
    skip_empty_lines: true,
    max_record_size: MAX_ROW_BYTES,
    bom: true,
    raw: true,
    info: true,
    relax_column_count: true,
  });
  pipeline(source, parser, () => undefined);
  let shortOrLong = 0;
  try {
    for await (const { record, raw, info } of parser as AsyncIterable<{
      record: Partial<Record<Column, string>>;
      raw: string;
      info: { invalid_field_length: number };
    }>) {
      const start = line + lineBreaks(/^(?:[ \t]*(?:\r\n|\r|\n))*/.exec(raw)![0]);
      line += lineBreaks(raw);
      if (info.invalid_field_length > shortOrLong) {
        shortOrLong = info.invalid_field_length;
        yield refused(start, 'the row does not have one value per header column');
      } else {
        yield row(start, record);
      }
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const at = (err as CsvError & { lines?: number }).lines;
      throw new ImportFileError(`malformed CSV${at ? ` at line ${at}` : ''}: ${err.message}`);
    }
    throw err;
  }
  if (line === 0) throw new ImportFileError('the file is empty: a header row is required');
}

/** NDJSON rows: one JSON object per line with the CSV's column names as keys; blank lines are skipped. */
export async function* eligibilityNdjsonRows(source: AsyncIterable<Buffer>): AsyncGenerator<ListRow> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for await (const { line, bytes } of lines(source, MAX_ROW_BYTES)) {
    if (bytes === undefined) {
      yield refused(line, `the line is longer than ${MAX_ROW_BYTES} bytes`);
      continue;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      yield refused(line, 'the line is not valid UTF-8');
      continue;
    }
    if (text.trim() === '') continue;
    yield jsonLineToListRow(text, line);
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

/** CRLF, CR or LF each end one line (csv-parse's raw text keeps some CRLFs as a lone CR). */
function lineBreaks(text: string): number {
  return text.match(/\r\n|\r|\n/g)?.length ?? 0;
}
