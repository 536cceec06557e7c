import { parse } from 'csv-parse/sync';
import { call, type CallOptions, type ProgramsApi, type Reply } from './programs-api';

/** A downloaded report: the raw answer, and the CSV parsed when the answer was one. */
export interface Download {
  status: number;
  headers: Headers;
  /** The bytes as text, whatever they are (a CSV, or a JSON body on 202/404/410). */
  text: string;
  /** The JSON body of a non-CSV answer. */
  body: unknown;
}

/** The report status response. */
export interface ReportStatus {
  id: string;
  status: string;
  statusUrl: string;
  retrievalUrl: string | null;
  /** Epoch milliseconds. */
  created: number;
}

/** The status of a re-verification batch. */
export interface BatchStatus {
  batchId: string;
  /** Epoch milliseconds. */
  created: number;
  status: string;
  totalRecords: number;
  recordsProcessed: number;
}

export interface Csv {
  header: string[];
  /** One object per data row, keyed by the header's names. */
  rows: Record<string, string>[];
}

/** A report followed to the end: its final status, its bytes and its rows. */
export interface FinishedReport extends Csv {
  id: string;
  status: ReportStatus;
  text: string;
}

/** The last day before, or the first after, today (UTC) by `days` days, as YYYY-MM-DD. */
export function utcDay(days = 0): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Parses a report as RFC 4180 CSV; every row must have as many cells as the header (csv-parse checks). */
export function parseCsv(text: string): Csv {
  const records = parse(text) as string[][];
  const [header = [], ...data] = records;
  return {
    header,
    rows: data.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]!]))),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reports, conversions and bulk re-verification through REST v2. URLs in responses are built on the
 * service's public base; they are called on the address the test reaches the service at (their path).
 */
export function reportsApi(eligo: { httpUrl: string }, api: ProgramsApi) {
  const pathOf = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };
  /** Calls a URL the service answered with. */
  const follow = (method: string, url: string, options: CallOptions = {}): Promise<Reply> =>
    call(eligo.httpUrl, method, pathOf(url), options);

  const requestReport = (token: string | undefined, body: unknown): Promise<Reply> =>
    api.v2('POST', '/report/verification', { token, body });
  const status = (token: string, reportId: string): Promise<Reply> =>
    api.v2('GET', `/report/${reportId}/status`, { token });
  const remove = (token: string, reportId: string): Promise<Reply> =>
    api.v2('DELETE', `/report/${reportId}`, { token });

  /** GET /report/{reportId}, kept as text: a CSV on 200, JSON otherwise. */
  async function download(token: string, reportId: string): Promise<Download> {
    const res = await fetch(`${eligo.httpUrl}/rest/v2/report/${reportId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
    return {
      status: res.status,
      headers: res.headers,
      text,
      body: json && text ? JSON.parse(text) : undefined,
    };
  }

  /** Polls the report's status until it is COMPLETE; fails at once on ERROR or DELETED, and on a timeout. */
  async function waitComplete(token: string, reportId: string, timeoutMs = 60_000): Promise<ReportStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = await status(token, reportId);
      if (reply.status !== 200)
        throw new Error(`report ${reportId} status: ${reply.status} ${JSON.stringify(reply.body)}`);
      if (reply.body.status === 'COMPLETE') return reply.body;
      if (reply.body.status !== 'PENDING')
        throw new Error(`report ${reportId} ended ${JSON.stringify(reply.body)}`);
      if (Date.now() > deadline) throw new Error(`report ${reportId} still PENDING after ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  /** Downloads a COMPLETE report and parses it, asserting the 200 CSV answer. */
  async function fetchCsv(token: string, reportId: string): Promise<Csv & { text: string }> {
    const got = await download(token, reportId);
    if (got.status !== 200) throw new Error(`download ${reportId}: ${got.status} ${got.text}`);
    return { text: got.text, ...parseCsv(got.text) };
  }

  /** Requests a report (asserting the 202), waits until it is COMPLETE, downloads and parses it. */
  async function report(token: string, body: unknown): Promise<FinishedReport> {
    const created = await requestReport(token, body);
    if (created.status !== 202)
      throw new Error(`report request: expected 202, got ${created.status}: ${JSON.stringify(created.body)}`);
    const id = created.body.id as string;
    const done = await waitComplete(token, id);
    return { id, status: done, ...(await fetchCsv(token, id)) };
  }

  /**
   * Reports are read from a projection that Kafka events feed: requests a fresh report until its rows satisfy
   * `ready` (the events arrived), or fails with the last rows after the timeout.
   */
  async function reportUntil(
    token: string,
    body: unknown,
    ready: (rows: Record<string, string>[]) => boolean,
    what: string,
    timeoutMs = 60_000,
  ): Promise<FinishedReport> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = await report(token, body);
      if (ready(got.rows)) return got;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last report:\n${got.text}`);
      await sleep(250);
    }
  }

  /** GET /report/fields, programIds repeated in the query. */
  const fields = (token: string | undefined, programIds?: string[]): Promise<Reply> =>
    api.v2(
      'GET',
      `/report/fields${programIds ? `?${programIds.map((id) => `programIds=${id}`).join('&')}` : ''}`,
      { token },
    );

  const convertVerification = (verificationId: string, body: unknown, token?: string): Promise<Reply> =>
    api.v2('POST', `/conversion/verification/${verificationId}`, { token, body });
  const convertTracking = (
    accountId: string,
    trackingId: string,
    body: unknown,
    token?: string,
  ): Promise<Reply> =>
    api.v2('POST', `/conversion/account/${accountId}/trackingId/${encodeURIComponent(trackingId)}`, {
      token,
      body,
    });

  const reverify = (token: string | undefined, body: unknown): Promise<Reply> =>
    api.v2('POST', '/verification/reverify', { token, body });

  /** Polls a batch's statusUrl until COMPLETE; `seen` gets every status read on the way. */
  async function waitBatchComplete(
    token: string,
    statusUrl: string,
    timeoutMs = 60_000,
    seen: (batch: BatchStatus) => void = () => undefined,
  ): Promise<BatchStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = await follow('GET', statusUrl, { token });
      if (reply.status !== 200)
        throw new Error(`batch status: ${reply.status} ${JSON.stringify(reply.body)}`);
      seen(reply.body);
      if (reply.body.status === 'COMPLETE') return reply.body;
      if (Date.now() > deadline)
        throw new Error(`batch not COMPLETE after ${timeoutMs} ms: ${JSON.stringify(reply.body)}`);
      await sleep(100);
    }
  }

  return {
    follow,
    requestReport,
    status,
    remove,
    download,
    waitComplete,
    fetchCsv,
    report,
    reportUntil,
    fields,
    convertVerification,
    convertTracking,
    reverify,
    waitBatchComplete,
  };
}

export type ReportsApi = ReturnType<typeof reportsApi>;

/** The STANDARD columns of a verification report, in CSV order. */
export const standardColumns = [
  'verificationId',
  'programId',
  'programName',
  'trackingId',
  'segment',
  'subSegment',
  'mode',
  'currentStep',
  'outcome',
  'errorIds',
  'verificationMethod',
  'organizationId',
  'organizationName',
  'docUploadCount',
  'reviewOutcome',
  'rejectionReasons',
  'metadataKeys',
  'conversionCount',
  'conversionTotals',
  'conversionTags',
  'created',
  'lastUpdated',
  'completed',
];

/** The PII columns, in CSV order (then one metadata.<key> column per key). */
export const piiColumns = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'birthDate',
  'postalCode',
  'country',
];
