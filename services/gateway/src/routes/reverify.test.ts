import { programsV1, reportsV1 } from '@eligo/proto';
import { invalidArgument, notFound } from '@eligo/runtime';
import { checkBody } from '../endpoints/body-check';
import { ReverifyStarted, ReverifyStatus } from '../endpoints/reverify';
import {
  accountId,
  createRecorder,
  operator,
  publicBaseUrl as base,
  type ReportsStandIn,
  startReportsStandIn,
} from '../../test/reports-stand-in';

// Bulk re-verification as mounted by mountRest, through the real reports client against a stand-in
// ReportsService on a gRPC server. The verification client is empty: a request that reached the verification
// flow's routes instead would fail with 500.
const { BatchStatus } = reportsV1;
const { TokenRole } = programsV1;
const programId = 'a1'.repeat(12);
const batchId = 'bb'.repeat(12);
const tokens: Record<string, programsV1.TokenRole[]> = {
  tok_bulk: [TokenRole.TOKEN_ROLE_BULK_VERIFIER],
  tok_reporter: [TokenRole.TOKEN_ROLE_REPORTER, TokenRole.TOKEN_ROLE_PII],
};

const batch = (status: reportsV1.BatchStatus, processed: number) =>
  reportsV1.ReverificationBatch.fromPartial({
    batchId,
    programId,
    status,
    createdAt: new Date('2025-03-01T10:00:00.000Z'),
    totalRecords: 3,
    recordsProcessed: processed,
  });

const { calls, planned, answer, reset } = createRecorder();
let standIn: ReportsStandIn;

beforeAll(async () => {
  standIn = await startReportsStandIn({
    handlers: {
      startReverification: answer('startReverification', () => ({
        batch: batch(BatchStatus.BATCH_STATUS_PENDING, 0),
      })),
      getReverification: answer('getReverification', () => ({
        batch: batch(BatchStatus.BATCH_STATUS_IN_PROGRESS, 2),
      })),
    },
    tokens,
    // Far below a large batch: the route has its own limit.
    bodyLimit: '2kb',
  });
});
afterAll(() => standIn.stop());
beforeEach(() => reset());

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${standIn.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => i.toString(16).padStart(24, '0'));
const start = { programId, verificationIds: ids(3) };

describe('POST /verification/reverify', () => {
  it('queues the batch: 202 with the URLs to follow it and to request its report', async () => {
    const res = await call('POST', '/verification/reverify', 'tok_bulk', start);
    expect([res.status, res.body]).toEqual([
      202,
      {
        batchId,
        statusUrl: `${base}/rest/v2/verification/reverify/${batchId}`,
        reportUrl: `${base}/rest/v2/report/reverify/${batchId}`,
      },
    ]);
    expect(checkBody(ReverifyStarted, res.body)).toEqual({ ok: true, value: res.body });
    expect(calls).toEqual([['startReverification', { accountId, ...start }]]);
  });

  it('takes the largest batch (10,000 ids) whatever the general body limit', async () => {
    const res = await call('POST', '/verification/reverify', 'tok_bulk', {
      programId,
      verificationIds: ids(10_000),
    });
    expect(res.status).toBe(202);
    expect((calls[0]![1] as { verificationIds: string[] }).verificationIds).toHaveLength(10_000);
  });

  it('answers 401 without a valid token and 403 SEM without the BULK_VERIFIER role, without a call', async () => {
    for (const token of [null, 'nope', operator]) {
      const res = await call('POST', '/verification/reverify', token, start);
      expect([token, res.status, res.body]).toEqual([
        token,
        401,
        { systemErrorMessage: 'Access token is empty or invalid' },
      ]);
    }
    const res = await call('POST', '/verification/reverify', 'tok_reporter', start);
    expect([res.status, res.body]).toEqual([
      403,
      { systemErrorMessage: 'The access token does not have the BULK_VERIFIER role' },
    ]);
    expect(calls).toEqual([]);
  });

  it.each([
    [{ programId, verificationIds: [] }, 'body.verificationIds must NOT have fewer than 1 items'],
    [{ programId, verificationIds: ids(10_001) }, 'body.verificationIds must NOT have more than 10000 items'],
    [{ programId: 'nope', verificationIds: ids(1) }, 'body.programId must match pattern "^[0-9a-f]{24}$"'],
    [{ verificationIds: ids(1) }, 'body.programId is required'],
    [{ ...start, mode: 'LIVE' }, 'body has unexpected property mode (allowed: programId, verificationIds)'],
    [{ programId, verificationIds: [1] }, 'body.verificationIds[0] must be string'],
  ])('refuses %# with 400 invalidRequest, without a call', async (body, message) => {
    const res = await call('POST', '/verification/reverify', 'tok_bulk', body);
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });

  it("passes the service's refusals on: another account's program 404, a bad list 400", async () => {
    planned.set('startReverification', notFound('Program not found', { errorIds: ['noProgram'] }));
    const program = await call('POST', '/verification/reverify', 'tok_bulk', start);
    expect([program.status, program.body]).toEqual([
      404,
      { errorIds: ['noProgram'], systemErrorMessage: 'Program not found' },
    ]);
    planned.set(
      'startReverification',
      invalidArgument('Duplicate verification ids', { errorIds: ['invalidRequest'] }),
    );
    const list = await call('POST', '/verification/reverify', 'tok_bulk', start);
    expect(list.status).toBe(400);
  });
});

describe('GET /verification/reverify/{batchId}', () => {
  it('answers the progress of the batch', async () => {
    const res = await call('GET', `/verification/reverify/${batchId}`, 'tok_bulk');
    expect([res.status, res.body]).toEqual([
      200,
      {
        batchId,
        // Epoch milliseconds, like every other timestamp of REST v2.
        created: Date.parse('2025-03-01T10:00:00.000Z'),
        status: 'IN_PROGRESS',
        totalRecords: 3,
        recordsProcessed: 2,
      },
    ]);
    expect(checkBody(ReverifyStatus, res.body)).toEqual({ ok: true, value: res.body });
    expect(calls).toEqual([['getReverification', { accountId, batchId }]]);
  });

  it.each([
    [BatchStatus.BATCH_STATUS_PENDING, 'PENDING'],
    [BatchStatus.BATCH_STATUS_COMPLETE, 'COMPLETE'],
  ])('names status %s %s', async (status, name) => {
    planned.set('getReverification', { batch: batch(status, 0) });
    const res = await call('GET', `/verification/reverify/${batchId}`, 'tok_bulk');
    expect(res.body.status).toBe(name);
  });

  it('needs a token with the BULK_VERIFIER role', async () => {
    expect((await call('GET', `/verification/reverify/${batchId}`, null)).status).toBe(401);
    const res = await call('GET', `/verification/reverify/${batchId}`, 'tok_reporter');
    expect([res.status, res.body]).toEqual([
      403,
      { systemErrorMessage: 'The access token does not have the BULK_VERIFIER role' },
    ]);
    expect(calls).toEqual([]);
  });

  it('answers 404 SEM for a malformed batch id without a call, and for one the service does not know', async () => {
    for (const id of ['nope', 'BB'.repeat(12)]) {
      const res = await call('GET', `/verification/reverify/${id}`, 'tok_bulk');
      expect([id, res.status, res.body]).toEqual([
        id,
        404,
        { systemErrorMessage: 'Re-verification batch not found' },
      ]);
    }
    expect(calls).toEqual([]);
    planned.set('getReverification', notFound('Re-verification batch not found'));
    const res = await call('GET', `/verification/reverify/${batchId}`, 'tok_bulk');
    expect([res.status, res.body]).toEqual([404, { systemErrorMessage: 'Re-verification batch not found' }]);
  });
});
