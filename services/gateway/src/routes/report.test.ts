import { get as httpGet, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { programsV1, reportsV1 } from '@eligo/proto';
import { invalidArgument, notFound, permissionDenied, unavailable } from '@eligo/runtime';
import { ReportFieldSets, ReportStatus as ReportStatusSchema } from '../endpoints/report-schemas';
import { zodSays } from '../../test/check-answers';
import {
  accountId,
  createRecorder,
  operator,
  publicBaseUrl as base,
  type ReportsStandIn,
  startReportsStandIn,
  tokenId,
} from '../../test/reports-stand-in';

// The REST v2 report routes as mounted by mountRest, through the real reports client against a stand-in
// ReportsService on a gRPC server: roles, request mapping, the status shape and the streamed download.
const { ReportStatus, VerificationModeInclusion } = reportsV1;
const { TokenRole } = programsV1;
const programA = 'a1'.repeat(12);
const programB = 'b2'.repeat(12);
const batchId = 'bb'.repeat(12);
const [pending, complete, failed, deleted, big] = ['01', '02', '03', '04', '05'].map((n) => n.repeat(12)) as [
  string,
  string,
  string,
  string,
  string,
];
const created = new Date('2025-03-01T10:00:00.000Z');

/** Tokens by the roles they carry. */
const tokens: Record<string, programsV1.TokenRole[]> = {
  tok_reporter: [TokenRole.TOKEN_ROLE_REPORTER],
  tok_reporter_pii: [TokenRole.TOKEN_ROLE_REPORTER, TokenRole.TOKEN_ROLE_PII],
  tok_pii: [TokenRole.TOKEN_ROLE_PII],
  tok_bulk: [TokenRole.TOKEN_ROLE_BULK_VERIFIER],
};

const report = (reportId: string, status: reportsV1.ReportStatus) =>
  reportsV1.Report.fromPartial({ reportId, status, createdAt: created, kind: 'VERIFICATION' });

/** The stand-in's reports: a status, and the CSV chunks of a complete one (an Error fails the stream there). */
const stored = new Map<string, { report: reportsV1.Report; chunks: (Buffer | Error)[] }>();
const { calls, planned, answer, record, reset } = createRecorder();
/** Chunks the stand-in has handed to gRPC, and whether its last stream has ended (cancelled or not). */
const stream = { produced: 0, ended: Promise.resolve() };

const storedReport = (reportId: string) => {
  const entry = stored.get(reportId);
  if (!entry) throw notFound('Report not found');
  return entry;
};

async function* downloadReport(req: reportsV1.DownloadReportRequest) {
  stream.produced = 0;
  let end!: () => void;
  stream.ended = new Promise<void>((resolve) => (end = resolve));
  try {
    record('downloadReport', req);
    const entry = storedReport(req.reportId);
    yield reportsV1.DownloadReportResponse.fromPartial({ part: { $case: 'report', report: entry.report } });
    if (entry.report.status !== ReportStatus.REPORT_STATUS_COMPLETE) return;
    for (const chunk of entry.chunks) {
      if (chunk instanceof Error) throw chunk;
      stream.produced++;
      yield { part: { $case: 'chunk' as const, chunk } };
    }
  } finally {
    end();
  }
}

let standIn: ReportsStandIn;

beforeAll(async () => {
  standIn = await startReportsStandIn({
    handlers: {
      createVerificationReport: answer('createVerificationReport', () => ({
        report: report(pending, ReportStatus.REPORT_STATUS_PENDING),
      })),
      createReverifyReport: answer('createReverifyReport', () => ({
        report: report(pending, ReportStatus.REPORT_STATUS_PENDING),
      })),
      getReportStatus: answer('getReportStatus', (req: reportsV1.GetReportStatusRequest) => ({
        report: storedReport(req.reportId).report,
      })),
      downloadReport,
      deleteReport: answer('deleteReport', (req: reportsV1.DeleteReportRequest) => {
        const entry = storedReport(req.reportId);
        entry.report = { ...entry.report, status: ReportStatus.REPORT_STATUS_DELETED };
        entry.chunks = [];
        return { report: entry.report };
      }),
      listReportFields: answer('listReportFields', () => ({
        fieldSets: [
          {
            scope: 'STANDARD',
            fields: [
              { name: 'verificationId', description: 'The verification' },
              { name: 'currentStep', description: 'Its step' },
            ],
          },
          { scope: 'METADATA', fields: [{ name: 'metadata.plan', description: 'Metadata key plan' }] },
        ],
      })),
      recordConversion: answer('recordConversion', () => ({ conversionId: 'c1' })),
      startReverification: answer('startReverification', () => ({})),
      getReverification: answer('getReverification', () => ({})),
      listPiiAccess: answer('listPiiAccess', () => ({ accesses: [], nextPageToken: '' })),
    },
    tokens,
    bodyLimit: '10kb',
    downloadDeadlineMs: 30_000,
  });
});
afterAll(() => standIn.stop());
beforeEach(() => {
  reset();
  stored.clear();
  stored.set(pending, { report: report(pending, ReportStatus.REPORT_STATUS_PENDING), chunks: [] });
  stored.set(complete, {
    report: report(complete, ReportStatus.REPORT_STATUS_COMPLETE),
    chunks: [
      Buffer.from('verificationId,currentStep\n'),
      Buffer.from('v1,success\n'),
      Buffer.from('v2,pending\n'),
    ],
  });
  stored.set(failed, { report: report(failed, ReportStatus.REPORT_STATUS_ERROR), chunks: [] });
  stored.set(deleted, { report: report(deleted, ReportStatus.REPORT_STATUS_DELETED), chunks: [] });
});

async function call(method: string, path: string, options: { token?: string | null; body?: unknown } = {}) {
  const token = options.token === undefined ? 'tok_reporter' : options.token;
  const res = await fetch(`${standIn.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json');
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text };
}

const statusOf = (id: string, status: string) => ({
  id,
  status,
  statusUrl: `${base}/rest/v2/report/${id}/status`,
  retrievalUrl: status === 'COMPLETE' ? `${base}/rest/v2/report/${id}` : null,
  // Epoch milliseconds, like every other timestamp of REST v2.
  created: created.getTime(),
});
const validRequest = { startDate: '2025-01-01', endDate: '2025-01-31' };
// Three entries each: jest passes a test with more parameters than its row has a done callback.
const endpoints: [string, string, unknown][] = [
  ['POST', '/report/verification', validRequest],
  ['POST', `/report/reverify/${batchId}`, undefined],
  ['GET', '/report/fields', undefined],
  ['GET', `/report/${complete}/status`, undefined],
  ['GET', `/report/${complete}`, undefined],
  ['DELETE', `/report/${complete}`, undefined],
];

describe('authentication and roles', () => {
  it.each(endpoints)(
    '%s %s answers 401 SEM without a valid token, before any call',
    async (method, path, body) => {
      for (const token of [null, 'tok_unknown', operator]) {
        const res = await call(method, path, { token, body });
        expect([token, res.status, res.body]).toEqual([
          token,
          401,
          { systemErrorMessage: 'Access token is empty or invalid' },
        ]);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
      expect(calls).toEqual([]);
    },
  );

  it.each(endpoints)(
    '%s %s answers 403 SEM to a token without the REPORTER role',
    async (method, path, body) => {
      for (const token of ['tok_pii', 'tok_bulk']) {
        const res = await call(method, path, { token, body });
        expect([token, res.status, res.body]).toEqual([
          token,
          403,
          { systemErrorMessage: 'The access token does not have the REPORTER role' },
        ]);
      }
      expect(calls).toEqual([]);
    },
  );

  it('checks the role before the shape of an id', async () => {
    const res = await call('GET', '/report/nope/status', { token: 'tok_pii' });
    expect(res.status).toBe(403);
  });
});

describe('POST /report/verification', () => {
  it('passes every field on, with the token and whether it may see personal information', async () => {
    const res = await call('POST', '/report/verification', {
      token: 'tok_reporter_pii',
      body: {
        startDate: '2025-01-01',
        endDate: '2025-01-31',
        format: 'CSV',
        isPiiIncluded: true,
        piiReason: 'Audit of March',
        programIds: [programA, programB],
        verificationModeInclusion: 'LIVE',
      },
    });
    expect([res.status, res.body]).toEqual([202, statusOf(pending, 'PENDING')]);
    expect(zodSays(ReportStatusSchema, res.body)).toBeUndefined();
    expect(calls).toEqual([
      [
        'createVerificationReport',
        {
          accountId,
          tokenId,
          startDate: '2025-01-01',
          endDate: '2025-01-31',
          format: 'CSV',
          piiIncluded: true,
          piiReason: 'Audit of March',
          programIds: [programA, programB],
          modeInclusion: VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_LIVE,
          piiAllowed: true,
        },
      ],
    ]);
  });

  it('applies the defaults, and tells the service the token has no PII role', async () => {
    const res = await call('POST', '/report/verification', { body: validRequest });
    expect(res.status).toBe(202);
    expect(calls).toEqual([
      [
        'createVerificationReport',
        {
          accountId,
          tokenId,
          startDate: '2025-01-01',
          endDate: '2025-01-31',
          format: 'CSV',
          piiIncluded: false,
          piiReason: '',
          programIds: [],
          modeInclusion: VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_ALL,
          piiAllowed: false,
        },
      ],
    ]);
  });

  it('maps TEST to its enum value', async () => {
    await call('POST', '/report/verification', {
      body: { ...validRequest, verificationModeInclusion: 'TEST' },
    });
    expect(calls[0]![1]).toMatchObject({
      modeInclusion: VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_TEST,
    });
  });

  it.each([
    [
      { ...validRequest, surelyUnknown: 1 },
      /^body has unexpected property surelyUnknown \(allowed: startDate, /,
    ],
    [{ startDate: '2025-01-01' }, 'body.endDate is required'],
    [{ ...validRequest, startDate: '2025-1-1' }, /^body\.startDate must match/],
    [{ ...validRequest, endDate: '2025-02-30' }, 'body.endDate must match format "date"'],
    [{ ...validRequest, format: 'PDF' }, 'body.format must be one of CSV'],
    [{ ...validRequest, isPiiIncluded: 'yes' }, 'body.isPiiIncluded must be boolean'],
    [
      { ...validRequest, piiReason: 'x'.repeat(501) },
      'body.piiReason must NOT have more than 500 characters',
    ],
    [{ ...validRequest, programIds: ['nope'] }, /^body\.programIds\[0\] must match pattern/],
    [
      { ...validRequest, programIds: Array.from({ length: 101 }, () => programA) },
      'body.programIds must NOT have more than 100 items',
    ],
    [
      { ...validRequest, verificationModeInclusion: 'live' },
      'body.verificationModeInclusion must be one of ALL, LIVE, TEST',
    ],
  ])('refuses %j with 400 invalidRequest, without a call', async (body, message) => {
    const res = await call('POST', '/report/verification', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorIds: ['invalidRequest'], systemErrorMessage: expect.any(String) });
    expect(res.body.systemErrorMessage).toEqual(
      typeof message === 'string' ? message : expect.stringMatching(message),
    );
    expect(calls).toEqual([]);
  });

  it.each([
    [{ ...validRequest, endDate: '2023-02-29' }, 'body.endDate must match format "date"'],
    [
      { ...validRequest, piiReason: 'a\u0000b' },
      'body.piiReason must not contain control characters other than tabs and line breaks',
    ],
    [
      { ...validRequest, programIds: [programA, 'nope'] },
      'body.programIds[1] must match pattern "^[0-9a-f]{24}$"',
    ],
    [{ ...validRequest, format: 1 }, 'body.format must be string'],
    [{ surelyUnknown: 1 }, 'body.startDate is required'],
  ])('words the refusal of %j as the document’s schema says it', async (body, message) => {
    const res = await call('POST', '/report/verification', { body });
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });

  it('takes a leap day, and a reason of several lines', async () => {
    const res = await call('POST', '/report/verification', {
      body: { startDate: '2024-02-29', endDate: '2024-03-01', piiReason: 'Audit\tof\r\nMarch' },
    });
    expect(res.status).toBe(202);
    expect(calls[0]![1]).toMatchObject({ startDate: '2024-02-29', piiReason: 'Audit\tof\r\nMarch' });
  });

  it("passes the service's refusals through: bad dates 400, personal information without the role 403", async () => {
    planned.set(
      'createVerificationReport',
      invalidArgument('endDate is before startDate', { errorIds: ['invalidRequest'] }),
    );
    const dates = await call('POST', '/report/verification', { body: validRequest });
    expect([dates.status, dates.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'endDate is before startDate' },
    ]);
    planned.set('createVerificationReport', permissionDenied('The token may not see personal information'));
    const pii = await call('POST', '/report/verification', {
      body: { ...validRequest, isPiiIncluded: true },
    });
    expect([pii.status, pii.body]).toEqual([
      403,
      { systemErrorMessage: 'The token may not see personal information' },
    ]);
  });
});

describe('POST /report/reverify/{batchId}', () => {
  it("requests the batch's report: 202 with its status", async () => {
    const res = await call('POST', `/report/reverify/${batchId}`);
    expect([res.status, res.body]).toEqual([202, statusOf(pending, 'PENDING')]);
    expect(calls).toEqual([['createReverifyReport', { accountId, batchId }]]);
  });

  it('answers 404 SEM for a malformed batch id without a call, and passes an unknown one on', async () => {
    for (const id of ['nope', 'BB'.repeat(12), 'bb'.repeat(13)]) {
      const res = await call('POST', `/report/reverify/${id}`);
      expect([id, res.status, res.body]).toEqual([
        id,
        404,
        { systemErrorMessage: 'Re-verification batch not found' },
      ]);
    }
    expect(calls).toEqual([]);
    planned.set('createReverifyReport', notFound('Re-verification batch not found'));
    const unknown = await call('POST', `/report/reverify/${batchId}`);
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { systemErrorMessage: 'Re-verification batch not found' },
    ]);
  });
});

describe('methods of /report/verification and /report/fields', () => {
  // They used to reach GetReportStatus with "verification" or "fields" as the report id: 404 Report not found.
  it('answers another method 405 with Allow, calling no service', async () => {
    for (const [method, path, allow] of [
      ['GET', '/report/verification', 'OPTIONS, POST'],
      ['DELETE', '/report/verification', 'OPTIONS, POST'],
      ['DELETE', '/report/fields', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const res = await call(method, path);
      expect([method, path, res.status, res.headers.get('allow')]).toEqual([method, path, 405, allow]);
    }
    expect(calls).toEqual([]);
  });
});

describe('GET /report/fields', () => {
  it('answers the field sets by scope for every program when none is named', async () => {
    const res = await call('GET', '/report/fields');
    expect([res.status, res.body]).toEqual([
      200,
      [
        {
          scope: 'STANDARD',
          fields: [
            { name: 'verificationId', description: 'The verification' },
            { name: 'currentStep', description: 'Its step' },
          ],
        },
        { scope: 'METADATA', fields: [{ name: 'metadata.plan', description: 'Metadata key plan' }] },
      ],
    ]);
    expect(zodSays(ReportFieldSets, res.body)).toBeUndefined();
    expect(calls).toEqual([['listReportFields', { accountId, programIds: [] }]]);
  });

  it.each([
    [`programIds=${programA}&programIds=${programB}`],
    [`programIds=${programA},${programB}`],
    [`programIds=${programA}&programIds=${programB},${programA}`],
  ])('reads the program ids of %s', async (query) => {
    const res = await call('GET', `/report/fields?${query}`);
    expect(res.status).toBe(200);
    expect(calls).toEqual([['listReportFields', { accountId, programIds: [programA, programB] }]]);
  });

  it.each([`programIds=nope`, `programIds=${programA},${programA.toUpperCase()}`, `programIds=${programA}x`])(
    'answers 400 invalidRequest for the malformed %s, without a call',
    async (query) => {
      const res = await call('GET', `/report/fields?${query}`);
      expect([res.status, res.body]).toEqual([
        400,
        {
          errorIds: ['invalidRequest'],
          systemErrorMessage: 'query.programIds must be ids of 24 lowercase hex characters',
        },
      ]);
      expect(calls).toEqual([]);
    },
  );

  it.each([
    ['programIds=', 'query.programIds must name at least one id (leave it out to mean all)'],
    ['programIds=,', 'query.programIds must name at least one id (leave it out to mean all)'],
    [
      `programIds=${Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0')).join(',')}`,
      'query.programIds must have at most 100 ids',
    ],
  ])('answers 400 invalidRequest for %s, without a call', async (query, message) => {
    const res = await call('GET', `/report/fields?${query}`);
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });

  it('takes 100 program ids', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(24, '0'));
    const res = await call('GET', `/report/fields?programIds=${ids.join(',')}`);
    expect(res.status).toBe(200);
    expect(calls).toEqual([['listReportFields', { accountId, programIds: ids }]]);
  });

  it("passes the service's refusal of another account's program through as 400", async () => {
    planned.set('listReportFields', invalidArgument('Unknown program', { errorIds: ['invalidRequest'] }));
    const res = await call('GET', `/report/fields?programIds=${programA}`);
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'Unknown program' },
    ]);
  });
});

describe('GET /report/{reportId}/status and DELETE /report/{reportId}', () => {
  it('answers the status, with a retrievalUrl only once the report is complete', async () => {
    for (const [id, status] of [
      [pending, 'PENDING'],
      [complete, 'COMPLETE'],
      [failed, 'ERROR'],
    ] as const) {
      const res = await call('GET', `/report/${id}/status`);
      expect([res.status, res.body]).toEqual([200, statusOf(id, status)]);
      expect(zodSays(ReportStatusSchema, res.body)).toBeUndefined();
    }
    expect(calls[0]).toEqual(['getReportStatus', { accountId, reportId: pending }]);
  });

  // It used to answer 200 DELETED: a deleted resource still available (Schemathesis' use_after_free).
  it('answers the status of a deleted or purged report 410, like its download', async () => {
    const res = await call('GET', `/report/${deleted}/status`);
    expect([res.status, res.body]).toEqual([410, { systemErrorMessage: 'The report was deleted or purged' }]);
  });

  it("deletes a report's data: 200 DELETED, then the download answers 410", async () => {
    const res = await call('DELETE', `/report/${complete}`);
    expect([res.status, res.body]).toEqual([200, statusOf(complete, 'DELETED')]);
    expect(calls).toEqual([['deleteReport', { accountId, reportId: complete }]]);
    const download = await call('GET', `/report/${complete}`);
    expect([download.status, download.body]).toEqual([
      410,
      { systemErrorMessage: 'The report was deleted or purged' },
    ]);
  });

  it.each(['nope', 'fields1', 'AB'.repeat(12), '01'.repeat(13)])(
    'answers 404 SEM for the malformed report id %s on every route, without a call',
    async (id) => {
      for (const [method, path] of [
        ['GET', `/report/${id}/status`],
        ['GET', `/report/${id}`],
        ['DELETE', `/report/${id}`],
      ] as const) {
        const res = await call(method, path);
        expect([method, res.status, res.body]).toEqual([
          method,
          404,
          { systemErrorMessage: 'Report not found' },
        ]);
      }
      expect(calls).toEqual([]);
    },
  );

  it("answers 404 for a report the service does not know (another account's included)", async () => {
    const other = 'ff'.repeat(12);
    for (const [method, path] of [
      ['GET', `/report/${other}/status`],
      ['GET', `/report/${other}`],
      ['DELETE', `/report/${other}`],
    ] as const) {
      const res = await call(method, path);
      expect([method, res.status, res.body]).toEqual([
        method,
        404,
        { systemErrorMessage: 'Report not found' },
      ]);
    }
  });

  it('answers 500 without detail when the service replies with an unspecified status', async () => {
    planned.set('getReportStatus', { report: report(pending, ReportStatus.REPORT_STATUS_UNSPECIFIED) });
    const res = await call('GET', `/report/${pending}/status`);
    expect([res.status, res.body]).toEqual([
      500,
      { errorIds: ['internalServerError'], systemErrorMessage: 'Internal server error' },
    ]);
  });
});

describe('GET /report/{reportId}', () => {
  it('streams a complete report as a CSV attachment, chunk after chunk', async () => {
    const res = await call('GET', `/report/${complete}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="report-${complete}.csv"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toBe('verificationId,currentStep\nv1,success\nv2,pending\n');
    expect(calls).toEqual([
      ['downloadReport', { accountId, reportId: complete, tokenId, piiAllowed: false }],
    ]);
  });

  it('answers a report without rows (no chunk at all) with an empty CSV', async () => {
    stored.get(complete)!.chunks = [];
    const res = await call('GET', `/report/${complete}`);
    expect([res.status, res.headers.get('content-type'), res.body]).toEqual([
      200,
      'text/csv; charset=utf-8',
      '',
    ]);
  });

  it('answers 202 with the status while the report is being generated', async () => {
    const res = await call('GET', `/report/${pending}`);
    expect([res.status, res.body]).toEqual([202, statusOf(pending, 'PENDING')]);
  });

  it('answers 410 for a deleted report and 500 for one that could not be generated', async () => {
    const gone = await call('GET', `/report/${deleted}`);
    expect([gone.status, gone.body]).toEqual([
      410,
      { systemErrorMessage: 'The report was deleted or purged' },
    ]);
    const error = await call('GET', `/report/${failed}`);
    expect([error.status, error.body]).toEqual([
      500,
      { errorIds: ['internalServerError'], systemErrorMessage: 'The report could not be generated' },
    ]);
  });

  it('answers a failure before any CSV was sent as JSON, through the error mapper', async () => {
    planned.set('downloadReport', unavailable('reports store unreachable'));
    const before = await call('GET', `/report/${complete}`);
    expect([before.status, before.body]).toEqual([503, { systemErrorMessage: 'reports store unreachable' }]);
    stored.get(complete)!.chunks = [unavailable('reports store unreachable')];
    const afterStatus = await call('GET', `/report/${complete}`);
    expect(afterStatus.status).toBe(503);
    expect(afterStatus.headers.get('content-type')).toMatch(/^application\/json/);
    expect(afterStatus.headers.get('content-disposition')).toBeNull();
  });

  it('breaks the connection off when the stream fails after CSV was sent, never appending JSON', async () => {
    stored.get(complete)!.chunks = [
      Buffer.from('verificationId\n'),
      Buffer.from('v1\n'),
      new Error('disk gone'),
    ];
    const res = await fetch(`${standIn.url}/report/${complete}`, {
      headers: { authorization: 'Bearer tok_reporter' },
    });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('reads the report from the service no faster than the client takes it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const total = 600;
    stored.set(big, {
      report: report(big, ReportStatus.REPORT_STATUS_COMPLETE),
      chunks: Array(total).fill(chunk),
    });
    const res = await open(`/report/${big}`);
    res.pause();
    await settled(() => stream.produced);
    // ~39 MB in all: with the client not reading, only what the buffers on the way hold has been produced.
    expect(stream.produced).toBeGreaterThan(0);
    expect(stream.produced).toBeLessThan(total / 2);
    let length = 0;
    res.on('data', (data: Buffer) => (length += data.length));
    res.resume();
    await once(res, 'end');
    expect([length, stream.produced]).toEqual([total * chunk.length, total]);
  });

  it('cancels the call when the client goes away', async () => {
    const total = 600;
    stored.set(big, {
      report: report(big, ReportStatus.REPORT_STATUS_COMPLETE),
      chunks: Array(total).fill(Buffer.alloc(64 * 1024, 'y')),
    });
    const res = await open(`/report/${big}`);
    await once(res, 'data');
    res.destroy();
    await stream.ended;
    expect(stream.produced).toBeLessThan(total);
  });
});

function open(path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    httpGet(`${standIn.url}${path}`, { headers: { authorization: 'Bearer tok_reporter' } }, resolve).on(
      'error',
      reject,
    );
  });
}

/** Waits until a counter has stopped moving for a while. */
async function settled(counter: () => number): Promise<void> {
  let last = -1;
  let still = 0;
  while (still < 5) {
    await sleep(50);
    const now = counter();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}
