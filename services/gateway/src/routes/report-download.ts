import type { reportsV1 } from '@eligo/proto';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { reportStatusOf, reportStatusToJson } from '../mapping/report';

export interface ReportDownload {
  reportId: string;
  publicBaseUrl: string;
  logger: Logger;
}

/**
 * Answers GET /report/{reportId} (endpoints/report.ts, downloadReport) from one DownloadReport stream. The first message is the report: COMPLETE
 * is followed by the CSV in chunks, each written once the client took the previous one (backpressure reaches
 * the service through the stream); PENDING is 202 with the status, DELETED 410, ERROR 500.
 *
 * The 200 headers go out with the first chunk, so a stream that fails before any byte of CSV still gets the
 * ordinary JSON error (the rejection goes to the error middleware). Once CSV has been sent, a failure
 * destroys the response: a client must see a broken download, never a JSON error inside a CSV file.
 */
export async function sendReport(
  res: Response,
  parts: AsyncIterable<reportsV1.DownloadReportResponse>,
  { reportId, publicBaseUrl, logger }: ReportDownload,
): Promise<void> {
  let report: reportsV1.Report | undefined;
  let started = false;
  // The last chunk handed to the socket: Node holds the first write (with the headers) until the next tick.
  let flushed: Promise<void> = Promise.resolve();
  const start = () => {
    started = true;
    res.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="report-${reportId}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  };
  try {
    for await (const { part } of parts) {
      if (report === undefined) {
        if (part?.$case !== 'report') throw new Error('DownloadReport did not start with the report');
        report = part.report;
        continue;
      }
      if (part?.$case !== 'chunk' || reportStatusOf(report) !== 'COMPLETE')
        throw new Error('DownloadReport sent a message that does not belong to the report');
      if (!started) start();
      // The client went away: leaving the loop cancels the call.
      if (res.destroyed) return;
      let written!: () => void;
      flushed = new Promise<void>((resolve) => (written = resolve));
      if (!res.write(part.chunk, () => written())) await drained(res);
    }
  } catch (err) {
    if (!started) throw err;
    // A client that went away aborted the call itself: nothing to report.
    if (!res.destroyed)
      logger.warn({ err, reportId }, 'report download broke off after the headers were sent');
    // What was sent reaches the client (the 200 and the CSV so far) before the connection is cut: a failure
    // that follows its chunk at once (a service in this process) must not turn the download into no answer.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([flushed, new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
    res.destroy();
    return;
  }
  if (report === undefined) throw new Error('DownloadReport ended without the report');
  switch (reportStatusOf(report)) {
    case 'COMPLETE':
      if (!started) start();
      res.end();
      return;
    case 'PENDING':
      res.status(202).json(reportStatusToJson(report, publicBaseUrl));
      return;
    case 'DELETED':
      reportGone(res);
      return;
    case 'ERROR':
      res
        .status(500)
        .json({ errorIds: ['internalServerError'], systemErrorMessage: 'The report could not be generated' });
      return;
  }
}

/** Resolves when the response can take more, or when it closed (a client that went away drains nothing). */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** 410 for a report that was deleted or purged (its download and its status alike). */
export function reportGone(res: Response): void {
  res.status(410).json({ systemErrorMessage: 'The report was deleted or purged' });
}
