import type { reportsV1 } from '@eligo/proto';
import type { GrpcClient } from '@eligo/runtime';

type Service = typeof reportsV1.ReportsServiceService;

/** ELIGO_GATEWAY_REPORT_DOWNLOAD_DEADLINE_MS's default: one DownloadReport stream carries a whole report. */
export const REPORT_DOWNLOAD_DEADLINE_MS = 600_000;

/**
 * The ReportsService RPCs the gateway calls (reports, conversions, bulk re-verification and the operator's PII
 * access log), one typed method each, through the runtime client (deadline, UNAVAILABLE retries, circuit
 * breaker). GetInfo goes through module-info.ts like every service's.
 */
export interface ReportsClient {
  createVerificationReport(
    req: reportsV1.CreateVerificationReportRequest,
  ): Promise<reportsV1.CreateVerificationReportResponse>;
  createReverifyReport(
    req: reportsV1.CreateReverifyReportRequest,
  ): Promise<reportsV1.CreateReverifyReportResponse>;
  getReportStatus(req: reportsV1.GetReportStatusRequest): Promise<reportsV1.GetReportStatusResponse>;
  /**
   * The report's status, then its CSV in chunks when it is COMPLETE. Read with backpressure; breaking off the
   * loop, or aborting `signal` (the HTTP client went away), cancels the call. No retries: a stream that
   * failed half-way cannot be resumed.
   */
  downloadReport(
    req: reportsV1.DownloadReportRequest,
    signal?: AbortSignal,
  ): AsyncIterable<reportsV1.DownloadReportResponse>;
  deleteReport(req: reportsV1.DeleteReportRequest): Promise<reportsV1.DeleteReportResponse>;
  listReportFields(req: reportsV1.ListReportFieldsRequest): Promise<reportsV1.ListReportFieldsResponse>;
  recordConversion(req: reportsV1.RecordConversionRequest): Promise<reportsV1.RecordConversionResponse>;
  startReverification(
    req: reportsV1.StartReverificationRequest,
  ): Promise<reportsV1.StartReverificationResponse>;
  getReverification(req: reportsV1.GetReverificationRequest): Promise<reportsV1.GetReverificationResponse>;
  listPiiAccess(req: reportsV1.ListPiiAccessRequest): Promise<reportsV1.ListPiiAccessResponse>;
}

/** Wraps the module's one reports channel (clients.ts); built once in createModule. */
export function createReportsClient(
  client: GrpcClient<Service>,
  downloadDeadlineMs = REPORT_DOWNLOAD_DEADLINE_MS,
): ReportsClient {
  return {
    createVerificationReport: (req) => client.unary('createVerificationReport', req),
    createReverifyReport: (req) => client.unary('createReverifyReport', req),
    getReportStatus: (req) => client.unary('getReportStatus', req),
    downloadReport: (req, signal) =>
      client.serverStream('downloadReport', req, {
        deadlineMs: downloadDeadlineMs,
        ...(signal && { signal }),
      }),
    deleteReport: (req) => client.unary('deleteReport', req),
    listReportFields: (req) => client.unary('listReportFields', req),
    recordConversion: (req) => client.unary('recordConversion', req),
    startReverification: (req) => client.unary('startReverification', req),
    getReverification: (req) => client.unary('getReverification', req),
    listPiiAccess: (req) => client.unary('listPiiAccess', req),
  };
}
