import { pipeline, type Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';

/**
 * Reading an import file (organizations, eligibility lists) as it streams, whatever its rows hold: the CSV
 * records and NDJSON lines with the file line each starts on. Each import turns them into its own rows.
 */

/** A row (CSV record or NDJSON line) longer than this is no row of any import: it is refused. */
export const MAX_ROW_BYTES = 64 * 1024;

/** The file cannot be read on: the import stops and says where. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

/**
 * The CSV header -> the record keys. Column names match in any case (spreadsheets capitalise); an unknown or
 * repeated column refuses the whole file, since every row would be read wrongly.
 */
export function headerColumns<C extends string>(header: readonly string[], known: readonly C[]): C[] {
  const byLowerCase = new Map(known.map((c) => [c.toLowerCase(), c]));
  const columns = header.map((raw) => {
    const column = byLowerCase.get(raw.trim().toLowerCase());
    if (!column) throw new ImportFileError(`line 1: unknown column "${raw}" (allowed: ${known.join(', ')})`);
    return column;
  });
  const repeated = columns.find((c, i) => columns.indexOf(c) !== i);
  if (repeated) throw new ImportFileError(`line 1: column ${repeated} appears twice`);
  return columns;
}

/** One CSV record and the file line it starts on; `shortOrLong` when it lacks or has extra fields. */
export type CsvRecord<C extends string> =
  { line: number; record: Partial<Record<C, string>> } | { line: number; shortOrLong: true };

/**
 * CSV records, pulled one at a time: while the caller awaits the service, the parser's buffer fills and the
 * upload pauses (backpressure), so memory stays flat whatever the file size. Broken quoting or an oversized
 * record stops the file (ImportFileError); a record with the wrong number of fields comes out as
 * `shortOrLong`, for the import to refuse that row alone. `columns` reads the header (line 1).
 */
export async function* csvRecords<C extends string>(
  source: Readable,
  columns: (header: string[]) => C[],
): AsyncGenerator<CsvRecord<C>> {
  // The next record's first physical line. csv-parse's own info.lines drifts after a CRLF inside quotes, so
  // lines are counted here from each record's raw text, which also holds the blank lines skipped before it.
  let line = 0;
  const parser = parse({
    columns: (header: string[]) => {
      line = parser.info.lines + 1;
      return columns(header);
    },
    trim: true,
    skip_empty_lines: true,
    max_record_size: MAX_ROW_BYTES,
    bom: true,
    raw: true,
    info: true,
    // A short or long record is reported as that row's problem instead of ending the import.
    relax_column_count: true,
  });
  // Failures of either stream surface through the iteration below.
  pipeline(source, parser, () => undefined);
  let shortOrLong = 0;
  try {
    for await (const { record, raw, info } of parser as AsyncIterable<{
      record: Partial<Record<C, string>>;
      raw: string;
      info: { invalid_field_length: number };
    }>) {
      const start = line + lineBreaks(/^(?:[ \t]*(?:\r\n|\r|\n))*/.exec(raw)![0]);
      line += lineBreaks(raw);
      if (info.invalid_field_length > shortOrLong) {
        shortOrLong = info.invalid_field_length;
        yield { line: start, shortOrLong: true };
      } else {
        yield { line: start, record };
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

/** The text of one NDJSON line, or why the line cannot be read (too long, not UTF-8). */
export type NdjsonLine = { line: number; text: string } | { line: number; rejection: string };

/** NDJSON lines as text, numbered from 1; blank lines are skipped. */
export async function* ndjsonLines(source: AsyncIterable<Buffer>): AsyncGenerator<NdjsonLine> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for await (const { line, bytes } of lines(source, MAX_ROW_BYTES)) {
    if (bytes === undefined) {
      yield { line, rejection: `the line is longer than ${MAX_ROW_BYTES} bytes` };
      continue;
    }
    let text: string;
    try {
      // The decoder drops a byte order mark at the start of what it decodes: the file's first line.
      text = utf8.decode(bytes);
    } catch {
      yield { line, rejection: 'the line is not valid UTF-8' };
      continue;
    }
    if (text.trim() !== '') yield { line, text };
  }
}

/**
 * Splits bytes into physical lines (LF or CRLF) numbered from 1. A line over maxBytes is not kept: its
 * bytes are skipped up to the next line break and it comes out without bytes.
 */
export async function* lines(
  source: AsyncIterable<Buffer>,
  maxBytes: number,
): AsyncGenerator<{ line: number; bytes: Buffer | undefined }> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let line = 1;
  const take = () => {
    const bytes = tooLong ? undefined : stripCr(Buffer.concat(parts, size));
    parts = [];
    size = 0;
    tooLong = false;
    return { line: line++, bytes };
  };
  for await (const chunk of source) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (!tooLong && size + piece.length > maxBytes) {
        tooLong = true;
        parts = [];
      } else if (!tooLong) {
        parts.push(piece);
        size += piece.length;
      }
      if (newline === -1) break;
      yield take();
      start = newline + 1;
    }
  }
  if (size > 0 || tooLong) yield take();
}

function stripCr(bytes: Buffer): Buffer {
  return bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
}

/** CRLF, CR or LF each end one line (csv-parse's raw text keeps some CRLFs as a lone CR). */
function lineBreaks(text: string): number {
  return text.match(/\r\n|\r|\n/g)?.length ?? 0;
}
