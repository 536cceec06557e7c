import type { Request } from 'express';
import type { verificationEligibilityListV1 as v1 } from '@eligo/proto';
import { invalidArgument } from '@eligo/runtime';
import { RestError } from '../errors';
import { eligibilityCsvRows, eligibilityNdjsonRows } from './eligibility-rows';
import { ImportFileError } from './import-file';
import type { ImportFormat } from './import-request';
import { BodyTooLargeError, streamRequestBody } from './import-stream';

/** Rows per message of the import stream: well under the service's 5000, a few hundred KiB at most. */
export const LIST_BATCH_SIZE = 2000;

/** The import stream's messages: the start, then the rows in batches, read from the body as it arrives. */
export async function* listImportMessages(
  programId: string,
  format: ImportFormat,
  rows: AsyncIterable<v1.EligibilityListRow>,
): AsyncGenerator<v1.ImportEligibilityListRequest> {
  yield { part: { $case: 'start', start: { programId, format } } };
  let batch: v1.EligibilityListRow[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= LIST_BATCH_SIZE) {
      yield { part: { $case: 'rows', rows: { rows: batch } } };
      batch = [];
    }
  }
  if (batch.length > 0) yield { part: { $case: 'rows', rows: { rows: batch } } };
}

export interface ListImportOptions {
  programId: string;
  format: ImportFormat;
  maxBytes: number;
  /** One client-streaming call: it takes the next message only once the service took the last. */
  send: (
    messages: AsyncIterable<v1.ImportEligibilityListRequest>,
  ) => Promise<v1.ImportEligibilityListResponse>;
}

/**
 * Streams the request body into the verification service's import without holding it (streamRequestBody):
 * rows are parsed as they arrive. The import is all or nothing: a file that breaks (quoting, size limit, the
 * client hanging up) cancels the call and the service drops what it stored, keeping the active list.
 */
export async function importListFromRequest(
  req: Request,
  options: ListImportOptions,
): Promise<v1.ImportEligibilityListResponse> {
  try {
    return await streamRequestBody(req, options.maxBytes, (body) => {
      const rows = options.format === 'csv' ? eligibilityCsvRows(body) : eligibilityNdjsonRows(body);
      return options.send(listImportMessages(options.programId, options.format, rows));
    });
  } catch (err) {
    if (err instanceof BodyTooLargeError)
      throw new RestError(413, `${err.message}; nothing was imported`, 'ER', ['invalidRequest']);
    if (err instanceof ImportFileError)
      throw invalidArgument(`${err.message}; nothing was imported`, { errorIds: ['invalidRequest'] });
    throw err;
  }
}
