import { reportsV1 } from '@eligo/proto';
import type { ModeInclusion } from '../domain/report-request';
import type { BatchRecord } from '../repository/batches.repository';
import type { PiiAccess } from '../repository/pii-access.repository';
import type { ReportRecord } from '../repository/reports.repository';

const { ReportStatus, BatchStatus, VerificationModeInclusion } = reportsV1;

const REPORT_STATUS = {
  PENDING: ReportStatus.REPORT_STATUS_PENDING,
  COMPLETE: ReportStatus.REPORT_STATUS_COMPLETE,
  ERROR: ReportStatus.REPORT_STATUS_ERROR,
  DELETED: ReportStatus.REPORT_STATUS_DELETED,
} as const;

const BATCH_STATUS = {
  PENDING: BatchStatus.BATCH_STATUS_PENDING,
  IN_PROGRESS: BatchStatus.BATCH_STATUS_IN_PROGRESS,
  COMPLETE: BatchStatus.BATCH_STATUS_COMPLETE,
} as const;

export function reportToProto(r: ReportRecord): reportsV1.Report {
  return {
    reportId: r.id,
    status: REPORT_STATUS[r.status],
    createdAt: r.createdAt,
    ...(r.completedAt ? { completedAt: r.completedAt } : {}),
    rowCount: r.rowCount,
    kind: r.kind,
    errorMessage: r.errorMessage ?? '',
  };
}

export function batchToProto(b: BatchRecord): reportsV1.ReverificationBatch {
  return {
    batchId: b.id,
    programId: b.programId,
    status: BATCH_STATUS[b.status],
    createdAt: b.createdAt,
    totalRecords: b.totalRecords,
    recordsProcessed: b.recordsProcessed,
  };
}

export function piiAccessToProto(a: PiiAccess): reportsV1.PiiAccess {
  return {
    accessId: a.id,
    accountId: a.accountId,
    tokenId: a.tokenId,
    reportId: a.reportId,
    action: a.action,
    reason: a.reason,
    occurredAt: a.occurredAt,
  };
}

/** Unspecified (an older caller) means ALL, the REST default. */
export function modeFromProto(mode: reportsV1.VerificationModeInclusion): ModeInclusion {
  if (mode === VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_LIVE) return 'LIVE';
  if (mode === VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_TEST) return 'TEST';
  return 'ALL';
}
