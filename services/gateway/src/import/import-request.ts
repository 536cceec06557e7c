import type { Request } from 'express';
import { invalidArgument } from '@eligo/runtime';
import { RestError } from '../errors';
import { importRows, ImportStoppedError, type ImportSummary } from './import-runner';
import { ImportFileError } from './import-file';
import { BodyTooLargeError, streamRequestBody } from './import-stream';
import { csvRows, ndjsonRows } from './organization-rows';

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
 * Streams the request body into the import: rows are parsed and sent in batches as they arrive
 * (streamRequestBody counts the bytes and drains what is left when the import stops early).
 */
export async function importFromRequest(req: Request, options: ImportRequestOptions): Promise<ImportSummary> {
  try {
    return await streamRequestBody(req, options.maxBytes, (body) =>
      importRows(options.format === 'csv' ? csvRows(body) : ndjsonRows(body), options.send),
    );
  } catch (err) {
    throw toRestFailure(err);
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
