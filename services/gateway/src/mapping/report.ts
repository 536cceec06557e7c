import type { z } from 'zod';
import { reportsV1 } from '@eligo/proto';
import type {
  ReportFieldSet,
  ReportRequest,
  ReportStatus,
  ReportStatusNames,
} from '../endpoints/report-schemas';
import type { PiiAccessPage } from '../endpoints/admin-pii-access';
import type { ReverifyStarted, ReverifyStatus } from '../endpoints/reverify';
import { present } from './program';

const { ReportStatus: ReportStatusValue, BatchStatus, VerificationModeInclusion } = reportsV1;

export type ReportStatusName = z.infer<typeof ReportStatusNames>;
export type ModeInclusionName = z.output<typeof ReportRequest>['verificationModeInclusion'];
export type BatchStatusName = 'PENDING' | 'IN_PROGRESS' | 'COMPLETE';

/** The report status response of REST v2 (docs/architecture.md, "Wire details"). */
export type ReportStatusJson = z.input<typeof ReportStatus>;

export type ReportFieldSetJson = z.input<typeof ReportFieldSet>;

/** POST /verification/reverify and GET /verification/reverify/{batchId} (endpoints/reverify.ts). */
export type ReverifyStartedJson = z.input<typeof ReverifyStarted>;
export type ReverifyStatusJson = z.input<typeof ReverifyStatus>;

/** The PII access log of the admin API (endpoints/admin-pii-access.ts). */
export type PiiAccessPageJson = z.input<typeof PiiAccessPage>;

type Names<E extends number, N extends string> = Readonly<Partial<Record<E, N>>>;

const reportStatuses: Names<reportsV1.ReportStatus, ReportStatusName> = {
  [ReportStatusValue.REPORT_STATUS_PENDING]: 'PENDING',
  [ReportStatusValue.REPORT_STATUS_COMPLETE]: 'COMPLETE',
  [ReportStatusValue.REPORT_STATUS_ERROR]: 'ERROR',
  [ReportStatusValue.REPORT_STATUS_DELETED]: 'DELETED',
};
const batchStatuses: Names<reportsV1.BatchStatus, BatchStatusName> = {
  [BatchStatus.BATCH_STATUS_PENDING]: 'PENDING',
  [BatchStatus.BATCH_STATUS_IN_PROGRESS]: 'IN_PROGRESS',
  [BatchStatus.BATCH_STATUS_COMPLETE]: 'COMPLETE',
};
const modeInclusions: Readonly<Record<ModeInclusionName, reportsV1.VerificationModeInclusion>> = {
  ALL: VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_ALL,
  LIVE: VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_LIVE,
  TEST: VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_TEST,
};

/**
 * An enum value the contract always sets to a known one; unspecified or unknown is a service bug (500,
 * logged), like a missing reply field (present), rather than a value the document does not list.
 */
function named<E extends number, N extends string>(names: Names<E, N>, value: E, what: string): N {
  const name = names[value];
  if (name === undefined) throw new Error(`service replied with ${what} ${value}`);
  return name;
}

/** The admin API's timestamps (the PII access log) are ISO 8601. */
const iso = (date: Date | undefined, what: string): string => present(date, what).toISOString();
/** REST v2's timestamps are epoch milliseconds (integers), as the spec's details `created` and `updated`. */
const epochMs = (date: Date | undefined, what: string): number => present(date, what).getTime();

export function modeInclusionToProto(name: ModeInclusionName): reportsV1.VerificationModeInclusion {
  return modeInclusions[name];
}

export function reportStatusOf(report: reportsV1.Report): ReportStatusName {
  return named(reportStatuses, report.status, 'report status');
}

export const reportUrl = (publicBaseUrl: string, reportId: string): string =>
  `${publicBaseUrl}/rest/v2/report/${reportId}`;

export function reportStatusToJson(
  report: reportsV1.Report | undefined,
  publicBaseUrl: string,
): ReportStatusJson {
  const r = present(report, 'report');
  const status = reportStatusOf(r);
  const url = reportUrl(publicBaseUrl, r.reportId);
  return {
    id: r.reportId,
    status,
    statusUrl: `${url}/status`,
    retrievalUrl: status === 'COMPLETE' ? url : null,
    created: epochMs(r.createdAt, 'report created_at'),
  };
}

export function reportFieldSetsToJson(reply: reportsV1.ListReportFieldsResponse): ReportFieldSetJson[] {
  return reply.fieldSets.map((set) => ({
    scope: set.scope,
    fields: set.fields.map(({ name, description }) => ({ name, description })),
  }));
}

export function reverifyStartedToJson(
  batch: reportsV1.ReverificationBatch | undefined,
  publicBaseUrl: string,
): ReverifyStartedJson {
  const { batchId } = present(batch, 'batch');
  return {
    batchId,
    statusUrl: `${publicBaseUrl}/rest/v2/verification/reverify/${batchId}`,
    reportUrl: `${publicBaseUrl}/rest/v2/report/reverify/${batchId}`,
  };
}

export function reverifyStatusToJson(batch: reportsV1.ReverificationBatch | undefined): ReverifyStatusJson {
  const b = present(batch, 'batch');
  return {
    batchId: b.batchId,
    created: epochMs(b.createdAt, 'batch created_at'),
    status: named(batchStatuses, b.status, 'batch status'),
    totalRecords: b.totalRecords,
    recordsProcessed: b.recordsProcessed,
  };
}

export function piiAccessPageToJson(reply: reportsV1.ListPiiAccessResponse): PiiAccessPageJson {
  return {
    accesses: reply.accesses.map((a) => ({
      id: a.accessId,
      accountId: a.accountId,
      tokenId: a.tokenId,
      reportId: a.reportId,
      action: a.action,
      reason: a.reason || null,
      occurredAt: iso(a.occurredAt, 'access occurred_at'),
    })),
    nextPageToken: reply.nextPageToken || null,
  };
}
