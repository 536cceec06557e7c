import { invalidArgument, permissionDenied } from '@eligo/runtime';
import { isId } from './ids';

export type ModeInclusion = 'ALL' | 'LIVE' | 'TEST';

/** A verification report's validated request, as stored with the report and read by the generator. */
export interface VerificationReportParams {
  /** YYYY-MM-DD, UTC, inclusive. */
  startDate: string;
  /** YYYY-MM-DD, UTC, inclusive. */
  endDate: string;
  /** Sorted, unique; empty = every program of the account. */
  programIds: string[];
  mode: ModeInclusion;
}

export interface ReportRequestInput {
  startDate: string;
  endDate: string;
  format: string;
  piiIncluded: boolean;
  piiReason: string;
  programIds: readonly string[];
  mode: ModeInclusion;
  /** The caller's token has the PII role. */
  piiAllowed: boolean;
}

export const MAX_PII_REASON = 500;
export const MAX_REPORT_PROGRAMS = 100;
/** A year and a day: one report covers at most this many days, so one request cannot ask for everything. */
export const MAX_REPORT_DAYS = 366;
const DAY_MS = 86_400_000;

const invalid = (message: string) => invalidArgument(message, { errorIds: ['invalidRequest'] });

/** A calendar date as YYYY-MM-DD (2026-02-30 is not one), in epoch ms at 00:00 UTC. */
export function parseCalendarDate(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? undefined : ms;
}

/**
 * Checks a report request and answers what the report will cover. Personal information needs the PII role
 * (PERMISSION_DENIED otherwise: the caller is known, the right is missing) and a reason, which the access log
 * keeps.
 */
export function validateReportRequest(input: ReportRequestInput): {
  params: VerificationReportParams;
  pii: { reason: string } | undefined;
} {
  const start = parseCalendarDate(input.startDate);
  const end = parseCalendarDate(input.endDate);
  if (start === undefined) throw invalid('startDate must be a date as YYYY-MM-DD');
  if (end === undefined) throw invalid('endDate must be a date as YYYY-MM-DD');
  if (end < start) throw invalid('endDate must not be before startDate');
  if ((end - start) / DAY_MS + 1 > MAX_REPORT_DAYS)
    throw invalid(`A report covers at most ${MAX_REPORT_DAYS} days`);
  if ((input.format || 'CSV').toUpperCase() !== 'CSV') throw invalid('format must be CSV');
  const programIds = [...new Set(input.programIds)].sort();
  if (programIds.length > MAX_REPORT_PROGRAMS)
    throw invalid(`programIds: at most ${MAX_REPORT_PROGRAMS} programs`);
  const malformed = programIds.find((id) => !isId(id));
  if (malformed !== undefined) throw invalid(`Invalid program id: ${malformed.slice(0, 40)}`);
  const params = { startDate: input.startDate, endDate: input.endDate, programIds, mode: input.mode };
  if (!input.piiIncluded) return { params, pii: undefined };
  if (!input.piiAllowed)
    throw permissionDenied('Reports with personal information need a token with the PII role', {});
  const reason = input.piiReason.trim();
  if (!reason) throw invalid('piiReason is required when isPiiIncluded is true');
  if (reason.length > MAX_PII_REASON) throw invalid(`piiReason: at most ${MAX_PII_REASON} characters`);
  return { params, pii: { reason } };
}

/** The report's start-time window: [startDate 00:00Z, the day after endDate 00:00Z). */
export function reportWindow(params: Pick<VerificationReportParams, 'startDate' | 'endDate'>): {
  from: Date;
  until: Date;
} {
  return {
    from: new Date(parseCalendarDate(params.startDate) as number),
    until: new Date((parseCalendarDate(params.endDate) as number) + DAY_MS),
  };
}
