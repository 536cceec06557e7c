import type { Readable } from 'node:stream';
import { isObjectNotFound, permissionDenied } from '@eligo/runtime';
import { recordPiiAccess } from '../repository/pii-access.repository';
import { findReport, markDeleted, expiredReports, type ReportRecord } from '../repository/reports.repository';
import type { AppContext } from './context';
import { noReport } from './errors';
import { isId } from '../domain/ids';

export async function reportOf(app: AppContext, accountId: string, reportId: string): Promise<ReportRecord> {
  const report = isId(reportId) ? await findReport(app.db, app.schema, accountId, reportId) : undefined;
  if (!report) throw noReport();
  return report;
}

/**
 * A report and, once COMPLETE, its bytes from the object store. A report with personal information goes only
 * to a token with the PII role, like its request, and each fetch enters the access log (who, which report,
 * the reason given) before any byte leaves.
 */
export async function openReport(
  app: AppContext,
  input: { accountId: string; reportId: string; tokenId: string; piiAllowed: boolean },
): Promise<{ report: ReportRecord; body?: Readable }> {
  const report = await reportOf(app, input.accountId, input.reportId);
  if (report.piiIncluded && !input.piiAllowed)
    throw permissionDenied('This report holds personal information: it needs a token with the PII role', {});
  if (report.status !== 'COMPLETE' || !report.objectKey) return { report };
  const body = await app.store.get(report.objectKey).catch((err: unknown) => {
    // Deleted a moment ago: the object goes before the row (deleteReport), so its data is gone.
    if (isObjectNotFound(err)) return undefined;
    throw err;
  });
  if (!body) return { report: { ...report, status: 'DELETED', objectKey: null } };
  if (report.piiIncluded)
    await recordPiiAccess(app.db, app.schema, {
      accountId: report.accountId,
      tokenId: input.tokenId,
      reportId: report.id,
      action: 'DOWNLOADED',
      reason: report.piiReason ?? '',
    }).catch((err: unknown) => {
      body.destroy();
      throw err;
    });
  return { report, body };
}

/** Store chunks larger than this are split, so a gRPC message stays far below the 4 MiB default limit. */
const MAX_CHUNK = 256 * 1024;

/** A download: the report first, then (when COMPLETE) its bytes in chunks of at most MAX_CHUNK. */
export async function* reportDownload(
  app: AppContext,
  input: { accountId: string; reportId: string; tokenId: string; piiAllowed: boolean },
): AsyncGenerator<{ report: ReportRecord } | { chunk: Buffer }> {
  const { report, body } = await openReport(app, input);
  yield { report };
  if (!body) return;
  for await (const chunk of body as AsyncIterable<Buffer>)
    for (let at = 0; at < chunk.length; at += MAX_CHUNK) yield { chunk: chunk.subarray(at, at + MAX_CHUNK) };
}

/** Deletes a report's data; answers it as DELETED (again, when it already was). */
export async function deleteReport(
  app: AppContext,
  input: { accountId: string; reportId: string },
): Promise<ReportRecord> {
  const report = await reportOf(app, input.accountId, input.reportId);
  if (report.status === 'DELETED') return report;
  // The object before the row: a failure in between leaves a report whose data is gone (downloads answer it
  // DELETED), never personal data that no row refers to any more.
  if (report.objectKey) await app.store.delete(report.objectKey);
  const changed = await markDeleted(app.db, app.schema, { id: report.id, accountId: input.accountId });
  if (!changed) return reportOf(app, input.accountId, input.reportId);
  // Completed between the read and the update: its file can only go now (the orphan sweep, after a crash).
  if (changed.before.objectKey && changed.before.objectKey !== report.objectKey)
    await app.store.delete(changed.before.objectKey);
  return changed.after;
}

/** One pass of the retention purge: finished reports past the retention lose their data (object first). */
export async function purgeExpiredReports(app: AppContext, now: Date = new Date()): Promise<boolean> {
  const batch = 100;
  const expired = await expiredReports(app.db, app.schema, new Date(now.getTime() - app.retentionMs), batch);
  for (const { id, objectKey } of expired) {
    if (objectKey) await app.store.delete(objectKey);
    await markDeleted(app.db, app.schema, { id });
  }
  return expired.length === batch;
}
