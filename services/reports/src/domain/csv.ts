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

/** A field RFC 4180 must quote: one holding the separator, a quote, or a line break (a lone \r or \n too). */
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTES = /"/g;

/**
 * Rows as RFC 4180 CSV: fields quoted where needed (quotes doubled inside), CRLF line ends, as spreadsheets
 * expect. A lone \n or \r in a value is quoted too: an unquoted line break would split a row in every reader.
 * Written by hand rather than with csv-stringify, which took a third of a report's CPU (casts, options and
 * object rows a report never needs); a test checks the output byte for byte against it.
 */
export function csvLines(rows: readonly (readonly string[])[]): string {
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const value = row[i]!;
      if (i > 0) out += ',';
      out += NEEDS_QUOTES.test(value) ? `"${value.replace(QUOTES, '""')}"` : value;
    }
    out += '\r\n';
  }
  return out;
}
