import { randomUUID } from 'node:crypto';
import { csvLines } from '../domain/csv';
import { MAX_METADATA_COLUMNS } from '../domain/fields';
import { REVERIFY_FIELDS, verificationHeader } from '../domain/report-cells';
import { reportWindow, type VerificationReportParams } from '../domain/report-request';
import { metadataKeysOf } from '../repository/projection.repository';
import { verificationReportQuery } from '../repository/report-queries';
import {
  claimPendingReport,
  extendLease,
  finishReport,
  type ReportRecord,
} from '../repository/reports.repository';
import type { AppContext } from './context';
import { reportCompleted } from '../events/publish';
import { REPORTS_PURPOSE, reportParts } from './report-parts';
import { copiedReport } from './report-copy';
import { reverifyReportCopy, verificationReportCopy } from '../repository/report-copy';
import { createObjectCipher } from '@eligo/runtime/dist/crypto/object-cipher';

/** A report is retried this many times (a dependency down, the store full) before it ends in ERROR. */
export const MAX_REPORT_ATTEMPTS = 3;

/**
 * One object per claim: a generator that lost its claim (it stalled past its lease) and cleans up after
 * itself can never delete the file the report's new owner wrote.
 */
export const reportObjectKey = (report: Pick<ReportRecord, 'accountId' | 'id'>, lease: string): string =>
  `reports/${report.accountId}/${report.id}/${lease}.csv`;

/** The report id in a key reportObjectKey built; undefined for any other key. */
export const reportIdOfKey = (key: string): string | undefined =>
  /^reports\/[^/]+\/([0-9a-f]{24})\/[^/]+\.csv$/.exec(key)?.[1];

/**
 * One pass of the generator: claims the oldest pending report and writes its CSV to the object store as it
 * is read, so memory holds a few chunks and a part whatever the report's size: CSV lines written by Postgres
 * (a COPY: app/report-copy.ts) -> sealed -> upload part for a report without personal information; cursor
 * batch -> CSV text -> sealed in a worker thread (app/report-parts.ts) -> upload part for the others.
 * The claim is renewed while it runs; a lost claim (the report deleted, or taken over after a stall) stops
 * the run and leaves the report to its new owner. Answers true when it did a report (there may be more).
 */
export async function generateNextReport(app: AppContext): Promise<boolean> {
  const lease = randomUUID();
  const report = await claimPendingReport(app.db, app.schema, lease, app.leaseMs);
  if (!report) return false;
  const lost = new AbortController();
  const renew = setInterval(
    () => {
      extendLease(app.db, app.schema, report.id, lease, app.leaseMs).then(
        (held) => held || lost.abort(),
        () => undefined,
      );
    },
    Math.max(100, Math.floor(app.leaseMs / 3)),
  );
  const key = reportObjectKey(report, lease);
  try {
    const counter = { rows: 0 };
    // Sealed by the worker already: straight into the raw store, as an iterable (no read-ahead, so each part's
    // memory can go back to the worker once the store asks for the next).
    await app.rawStore.put(key, sealedReport(app, report, key, counter, lost.signal), {
      contentType: 'text/csv; charset=utf-8',
      partBytes: app.reportWorker.partBytes,
    });
    if (lost.signal.aborted) throw new Error('the claim on the report was lost');
    const completed = await app.db.transaction(async (trx) => {
      const done = await finishReport(trx, app.schema, report.id, lease, {
        status: 'COMPLETE',
        objectKey: key,
        rowCount: counter.rows,
      });
      if (done) await reportCompleted(trx, app.schema, done);
      return done !== undefined;
    });
    // Deleted (or taken over) while it was written: the file is nobody's, and may hold personal data.
    if (!completed) await app.store.delete(key);
  } catch (err) {
    await failed(app, report, lease, key, err);
  } finally {
    clearInterval(renew);
  }
  return true;
}

/** Another try later, or ERROR after the last; a report lost to another owner is left alone. */
async function failed(
  app: AppContext,
  report: ReportRecord,
  lease: string,
  key: string,
  err: unknown,
): Promise<void> {
  const last = report.attempts >= MAX_REPORT_ATTEMPTS;
  app.logger.warn({ err, reportId: report.id, attempt: report.attempts, last }, 'report generation failed');
  await app.store.delete(key).catch(() => undefined);
  await app.db.transaction(async (trx) => {
    const done = await finishReport(
      trx,
      app.schema,
      report.id,
      lease,
      last ? { status: 'ERROR', errorMessage: 'The report could not be generated' } : { status: 'PENDING' },
    );
    if (done && last) await reportCompleted(trx, app.schema, done);
  });
}

/** The report's file, sealed, in chunks or parts; the header and query are made here. */
async function* sealedReport(
  app: AppContext,
  report: ReportRecord,
  objectKey: string,
  counter: { rows: number },
  lost: AbortSignal,
): AsyncGenerator<Buffer> {
  const target = { accountId: report.accountId, objectKey };
  // Without personal information, every cell is the projection's: Postgres writes the CSV itself.
  const copied = (copy: { sql: string; header: string }) =>
    createObjectCipher(app.reportWorker.masterKey, REPORTS_PURPOSE).seal(
      copiedReport(app.reportWorker.databaseUrl, copy, counter),
      objectKey,
    );
  let parts: AsyncGenerator<Buffer>;
  if (report.kind === 'REVERIFY') {
    const sql = reverifyReportCopy(app.schema, String(report.params.batchId));
    parts = copied({ sql, header: csvLines([REVERIFY_FIELDS]) });
  } else {
    const params = report.params as unknown as VerificationReportParams;
    const { from, until } = reportWindow(params);
    const testMode = params.mode === 'ALL' ? null : params.mode === 'TEST';
    const filter = { accountId: report.accountId, from, until, programIds: params.programIds, testMode };
    // Metadata values travel with the personal information only; their columns are the keys in range.
    const keys = report.piiIncluded
      ? await metadataKeysOf(
          app.db,
          app.schema,
          { ...filter, testMode: testMode ?? undefined },
          MAX_METADATA_COLUMNS,
        )
      : [];
    const header = csvLines([verificationHeader(report.piiIncluded, keys)]);
    if (report.piiIncluded) {
      const { sql, values } = verificationReportQuery(app.schema, filter);
      const job = { sql, values, metadataKeys: keys, header };
      parts = reportParts(app, job, target, counter);
    } else {
      parts = copied({ sql: verificationReportCopy(app.schema, filter), header });
    }
  }
  // Leaving the loop (a lost claim) stops the worker, or closes the COPY's connection.
  for await (const part of parts) {
    if (lost.aborted) return;
    yield part;
  }
}
