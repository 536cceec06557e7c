import { finished } from 'node:stream/promises';
import type { Request } from 'express';
import { invalidArgument } from '@eligo/runtime';
import { RestError } from '../errors';
import { importRows, ImportStoppedError, type ImportSummary } from './import-runner';
import { BodyTooLargeError, byteLimit, csvRows, ndjsonRows } from './import-stream';
import { ImportFileError } from './organization-rows';

export type ImportFormat = 'csv' | 'ndjson';

const formats: Record<string, ImportFormat> = {
  'text/csv': 'csv',
  'application/x-ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
};

/** Which parser reads the body; anything else (or another charset than UTF-8) is 415. */
export function importFormat(req: Request): ImportFormat {
  const contentType = req.headers['content-type'] ?? '';
  const [mediaType = '', ...params] = contentType.split(';').map((p) => p.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  const format = formats[mediaType];
  if (!format || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new RestError(
      415,
      `Content-Type must be text/csv or application/x-ndjson (application/jsonl), in UTF-8; got ${
        contentType || 'none'
      }`,
      'ER',
      ['invalidRequest'],
    );
  }
  return format;
}

export interface ImportRequestOptions {
  format: ImportFormat;
  maxBytes: number;
  send: Parameters<typeof importRows>[1];
}

/**
 * Streams the request body into the import without holding it: bytes are counted on the way, rows are
 * parsed and sent in batches as they arrive. When the import stops early the rest of the body is read and
 * dropped before the answer, as body-parser does, so that clients still sending get the status instead of a
 * reset connection.
 */
export async function importFromRequest(req: Request, options: ImportRequestOptions): Promise<ImportSummary> {
  const declared = Number(req.headers['content-length']);
  const counter = byteLimit(options.maxBytes);
  // A client that hangs up mid-file ends the import; no one reads the answer, and it is no server failure.
  const clientGone = () => {
    if (!req.readableEnded)
      counter.destroy(
        invalidArgument('the connection closed before the end of the file', { errorIds: ['invalidRequest'] }),
      );
  };
  req.once('close', clientGone);
  try {
    // A declared size over the limit is refused before a single row reaches the service.
    if (declared > options.maxBytes) throw new BodyTooLargeError(options.maxBytes);
    req.pipe(counter);
    const rows = options.format === 'csv' ? csvRows(counter) : ndjsonRows(counter);
    return await importRows(rows, options.send);
  } catch (err) {
    throw toRestFailure(err);
  } finally {
    req.off('close', clientGone);
    req.unpipe(counter);
    counter.destroy();
    if (!req.readableEnded && !req.destroyed) {
      req.resume();
      // Ends with the body, or with the connection when the client gives up.
      await finished(req).catch(() => undefined);
    }
  }
}

function toRestFailure(err: unknown): unknown {
  const summary: ImportSummary = {
    received: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    errors: [],
  };
  const stopped =
    err instanceof ImportStoppedError
      ? err
      : err instanceof BodyTooLargeError || err instanceof ImportFileError
        ? new ImportStoppedError(err, summary)
        : undefined;
  if (!stopped) return err;
  if (stopped.reason instanceof BodyTooLargeError)
    return new RestError(413, stopped.message, 'ER', ['invalidRequest']);
  return invalidArgument(stopped.message, { errorIds: ['invalidRequest'] });
}
