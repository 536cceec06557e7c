import { reportsV1 } from '@eligo/proto';
import { invalidArgument } from '@eligo/runtime';
import { PiiAccessPage } from '../../endpoints/admin-pii-access';
import { checkBody } from '../../endpoints/body-check';
import {
  accountId,
  createRecorder,
  operator,
  type ReportsStandIn,
  startReportsStandIn,
} from '../../../test/reports-stand-in';

// The PII access log under /rest/admin/v1 as mounted by mountRest, through the real reports client against a
// stand-in ReportsService on a gRPC server.
const accountToken = 'eligo_account_token';
const reportId = '01'.repeat(12);

const page = (): reportsV1.ListPiiAccessResponse => ({
  accesses: [
    reportsV1.PiiAccess.fromPartial({
      accessId: 'pa_2',
      accountId,
      tokenId: 'tok_1',
      reportId,
      action: 'DOWNLOADED',
      reason: '',
      occurredAt: new Date('2025-03-01T11:00:00.000Z'),
    }),
    reportsV1.PiiAccess.fromPartial({
      accessId: 'pa_1',
      accountId,
      tokenId: 'tok_1',
      reportId,
      action: 'REQUESTED',
      reason: 'Quarterly audit',
      occurredAt: new Date('2025-03-01T10:00:00.000Z'),
    }),
  ],
  nextPageToken: 'page-2',
});

const { calls, planned, answer, reset } = createRecorder();
let standIn: ReportsStandIn;

beforeAll(async () => {
  standIn = await startReportsStandIn({
    handlers: { listPiiAccess: answer('listPiiAccess', page) },
    // An account's token is valid, but not for the admin routes.
    tokens: { [accountToken]: [] },
    bodyLimit: '1kb',
    basePath: '/rest/admin/v1',
  });
});
afterAll(() => standIn.stop());
beforeEach(() => reset());

async function get(path: string, token: string | null = operator) {
  const res = await fetch(`${standIn.url}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

it('needs the operator token, before any service call', async () => {
  for (const token of [null, accountToken]) {
    expect((await get('/pii-access', token)).status).toBe(401);
  }
  expect(calls).toEqual([]);
});

it('answers one page of the log, newest first, not to be cached', async () => {
  const res = await get('/pii-access');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.body).toEqual({
    accesses: [
      {
        id: 'pa_2',
        accountId,
        tokenId: 'tok_1',
        reportId,
        action: 'DOWNLOADED',
        reason: null,
        occurredAt: '2025-03-01T11:00:00.000Z',
      },
      {
        id: 'pa_1',
        accountId,
        tokenId: 'tok_1',
        reportId,
        action: 'REQUESTED',
        reason: 'Quarterly audit',
        occurredAt: '2025-03-01T10:00:00.000Z',
      },
    ],
    nextPageToken: 'page-2',
  });
  expect(checkBody(PiiAccessPage, res.body).ok).toBe(true);
  expect(calls).toEqual([['listPiiAccess', { accountId: '', pageSize: 0, pageToken: '' }]]);
});

it('passes the account, page size and page token on, and shows the last page', async () => {
  planned.set('listPiiAccess', { accesses: [], nextPageToken: '' });
  const res = await get(`/pii-access?accountId=${accountId}&pageSize=500&pageToken=page-2`);
  expect([res.status, res.body]).toEqual([200, { accesses: [], nextPageToken: null }]);
  expect(calls).toEqual([['listPiiAccess', { accountId, pageSize: 500, pageToken: 'page-2' }]]);
});

it.each([
  'accountId=nope',
  `accountId=${accountId.toUpperCase()}`,
  'pageSize=0',
  'pageSize=501',
  'pageSize=x',
  'pageSize=',
  'accountId=',
  'pageToken=%7F',
  'pageToken=',
  'page=2',
])('refuses %s with 400 invalidRequest, without a call', async (query) => {
  const res = await get(`/pii-access?${query}`);
  expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
  expect(calls).toEqual([]);
});

it("answers the service's refusal of a page token 400 ER invalidRequest, also when it words it bare", async () => {
  planned.set('listPiiAccess', invalidArgument('Invalid page token'));
  const res = await get('/pii-access?pageToken=forged');
  expect([res.status, res.body]).toEqual([
    400,
    { errorIds: ['invalidRequest'], systemErrorMessage: 'Invalid page token' },
  ]);
});
