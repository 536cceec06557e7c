import type { organizationsV1 } from '@eligo/proto';
import type { ImportSummaryJson } from '../endpoints/admin-organization-import';
import { MAX_REPORTED_ERRORS } from './import-limits';
import { ImportFileError } from './import-file';
import { BodyTooLargeError } from './import-stream';
import type { ParsedRow } from './organization-rows';

/** Rows per ImportOrganizations call: well under the contract's 1000, small enough to keep memory flat. */
export const IMPORT_BATCH_SIZE = 500;
/** The reply lists the first rejections only; the count covers them all. */
export { MAX_REPORTED_ERRORS };

/** What the import answers (the OrganizationImportResult its definition states). */
export type ImportSummary = ImportSummaryJson;

type SendBatch = (rows: organizationsV1.ImportRow[]) => Promise<organizationsV1.ImportOrganizationsResponse>;

/** The file stopped being read part-way; `summary` is what was imported before. */
export class ImportStoppedError extends Error {
  constructor(
    readonly reason: ImportFileError | BodyTooLargeError,
    readonly summary: ImportSummary,
  ) {
    super(`${reason.message}; ${describe(summary)}`);
    this.name = 'ImportStoppedError';
  }
}

/**
 * Sends the rows in batches, one call at a time: the next rows are read only once a batch is stored, so a
 * slow service slows the upload instead of filling memory. A malformed file stores the rows read before the
 * break, then stops; a file over the size limit stops at once, without another call.
 */
export async function importRows(rows: AsyncIterable<ParsedRow>, send: SendBatch): Promise<ImportSummary> {
  const summary: ImportSummary = {
    received: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    errors: [],
  };
  let batch: organizationsV1.ImportRow[] = [];
  // Local rejections wait for their batch, so that the reported errors come out in line order.
  let pendingErrors: ImportSummary['errors'] = [];

  const flush = async () => {
    const reply = batch.length > 0 ? await send(batch) : undefined;
    summary.created += reply?.created ?? 0;
    summary.updated += reply?.updated ?? 0;
    summary.unchanged += reply?.unchanged ?? 0;
    summary.rejected += reply?.rejected.length ?? 0;
    const errors = [...pendingErrors, ...(reply?.rejected ?? [])].sort((a, b) => a.line - b.line);
    const room = MAX_REPORTED_ERRORS - summary.errors.length;
    summary.errors.push(...errors.slice(0, room).map(({ line, message }) => ({ line, message })));
    batch = [];
    pendingErrors = [];
  };

  try {
    for await (const row of rows) {
      summary.received++;
      if ('rejection' in row) {
        summary.rejected++;
        // The first MAX_REPORTED_ERRORS of a batch are enough: every later one has a later line.
        if (pendingErrors.length < MAX_REPORTED_ERRORS)
          pendingErrors.push({ line: row.line, message: row.rejection });
      } else {
        batch.push({ line: row.line, organization: row.organization });
        if (batch.length >= IMPORT_BATCH_SIZE) await flush();
      }
    }
  } catch (err) {
    if (err instanceof ImportFileError) {
      await flush();
      throw new ImportStoppedError(err, summary);
    }
    if (err instanceof BodyTooLargeError) throw new ImportStoppedError(err, summary);
    throw err;
  }
  await flush();
  return summary;
}

function describe(s: ImportSummary): string {
  return (
    `imported before stopping: ${s.created} created, ${s.updated} updated, ${s.unchanged} unchanged, ` +
    `${s.rejected} rejected of ${s.received} rows read. Importing is idempotent by externalId: ` +
    'send the corrected file again'
  );
}
