import { pipeline, Transform, type Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import {
  csvColumns,
  csvRecordToRow,
  ImportFileError,
  jsonLineToRow,
  type ParsedRow,
} from './organization-rows';

/** A row (CSV record or NDJSON line) longer than this is not an organization: it is refused. */
export const MAX_ROW_BYTES = 64 * 1024;

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than the limit of ${maxBytes} bytes (ELIGO_GATEWAY_IMPORT_MAX_BYTES)`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Passes bytes through and fails once more than maxBytes went by. Counting while streaming is the only
 * check that holds: Content-Length may be absent (chunked uploads) or wrong.
 */
export function byteLimit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? new BodyTooLargeError(maxBytes) : null, chunk);
    },
  });
}

/**
 * CSV rows, pulled one at a time: while the caller awaits the service, the parser's buffer fills and the
 * upload pauses (backpressure), so memory stays flat whatever the file size. Broken quoting or an oversized
 * record stops the file (ImportFileError); a record with the wrong number of fields is one rejected row.
 */
export async function* csvRows(source: Readable): AsyncGenerator<ParsedRow> {
  // The next record's first physical line. csv-parse's own info.lines drifts after a CRLF inside quotes, so
  // lines are counted here from each record's raw text, which also holds the blank lines skipped before it.
  let line = 0;
  const parser = parse({
    columns: (header: string[]) => {
      line = parser.info.lines + 1;
      return csvColumns(header);
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
      record: Record<string, string>;
      raw: string;
      info: { invalid_field_length: number };
    }>) {
      const start = line + lineBreaks(/^(?:[ \t]*(?:\r\n|\r|\n))*/.exec(raw)![0]);
      line += lineBreaks(raw);
      if (info.invalid_field_length > shortOrLong) {
        shortOrLong = info.invalid_field_length;
        yield { line: start, rejection: 'the row does not have one value per header column' };
      } else {
        yield csvRecordToRow(record, start);
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

/** NDJSON rows: one JSON object per physical line; blank lines are skipped, a bad line is a rejected row. */
export async function* ndjsonRows(source: AsyncIterable<Buffer>): AsyncGenerator<ParsedRow> {
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
    const row = jsonLineToRow(text, line);
    if (row) yield row;
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
