import { stringify } from 'csv-stringify/sync';

/** Characters a spreadsheet takes as the start of a formula (CSV injection, OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell that a spreadsheet shows as text: a value starting like a formula (a tracking id, metadata or a
 * name entered as "=HYPERLINK(...)") is prefixed with a quote. Only free text goes through here; numbers and
 * dates are written as they are.
 */
export function textCell(value: string | null | undefined): string {
  if (!value) return '';
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A list cell: items joined by "|", each guarded like a text cell. */
export function listCell(values: readonly string[] | null | undefined): string {
  return (values ?? []).map(textCell).join('|');
}

export function timeCell(value: Date | null | undefined): string {
  return value ? value.toISOString() : '';
}

/**
 * Rows as RFC 4180 CSV (quoted where needed, CRLF line ends, as spreadsheets expect). A lone \n or \r in a
 * value is quoted too: csv-stringify quotes only the record delimiter itself, and an unquoted line break
 * would split a row in every reader.
 */
export function csvLines(rows: readonly (readonly string[])[]): string {
  return stringify(rows as string[][], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}
