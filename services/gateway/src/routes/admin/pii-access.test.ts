import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { reportsV1 } from '@eligo/proto';
import { bindService, createClient, GrpcHost, invalidArgument } from '@eligo/runtime';
import { AuthCache } from '../../auth/auth-cache';
import { createAuthenticator } from '../../auth/authenticator';
import type { DocumentsClient } from '../../clients/documents.client';
import type { NotifierClient } from '../../clients/notifier.client';
import type { OrganizationsClient } from '../../clients/organizations.client';
import type { ProgramsClient } from '../../clients/programs.client';
import { createReportsClient } from '../../clients/reports.client';
import type { VerificationClient } from '../../clients/verification.client';
import { mountRest } from '../../http/rest-app';
import { createRequestValidator } from '../../validation/request-validator';

// The PII access log under /rest/admin/v1 as mounted by mountRest, through the real reports client against a
// stand-in ReportsService on a gRPC server.
const operator = 'eligo_operator_0123456789abcdefghij';
const accountToken = 'eligo_account_token';
const accountId = 'ac'.repeat(12);
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

const calls: [string, unknown][] = [];
const planned = new Map<string, unknown>();
const unused = async () => {
  throw new Error('not called by the admin routes');
};

const grpc = new GrpcHost({ logger: pino({ level: 'silent' }), reflection: false });
grpc.addService(
  bindService(
    reportsV1.ReportsServiceService,
    {
      getInfo: async () => ({}),
      createVerificationReport: unused,
      createReverifyReport: unused,
      getReportStatus: unused,
      downloadReport: async function* () {
        throw new Error('not called by the admin routes');
      },
      deleteReport: unused,
      listReportFields: unused,
      recordConversion: unused,
      startReverification: unused,
      getReverification: unused,
      listPiiAccess: async (req) => {
        calls.push(['listPiiAccess', req]);
        const next = planned.get('listPiiAccess');
        planned.delete('listPiiAccess');
        if (next instanceof Error) throw next;
        return (next as reportsV1.ListPiiAccessResponse | undefined) ?? page();
      },
    },
    pino({ level: 'silent' }),
  ),
);

let url: string;
let closeAll: () => void;

beforeAll(async () => {
  const address = `127.0.0.1:${await grpc.listen('127.0.0.1', 0)}`;
  const client = createClient(reportsV1.ReportsServiceClient, address, { deadlineMs: 5000, breaker: false });
  const app = express();
  mountRest(app, {
    logger: pino({ level: 'silent' }),
    publicBaseUrl: 'https://eligo.example.com',
    bodyLimit: '1kb',
    version: 'test',
    gitCommit: 'test',
    modules: { readAll: async () => [] },
    programs: {} as ProgramsClient,
    organizations: {} as OrganizationsClient,
    verification: {} as VerificationClient,
    documents: {} as DocumentsClient,
    notifier: {} as NotifierClient,
    reports: createReportsClient(client),
    authenticator: createAuthenticator({
      operatorToken: operator,
      cache: new AuthCache({ ttlMs: 0 }),
      authenticate: async () => ({ accountId, tokenId: 'ee'.repeat(12), roles: [] }),
    }),
    importMaxBytes: 1024,
    importBatchDeadlineMs: 1000,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/admin/v1`;
  closeAll = () => {
    server.close();
    client.close();
    grpc.forceShutdown();
  };
});
afterAll(() => closeAll());
beforeEach(() => {
  calls.length = 0;
  planned.clear();
});

async function get(path: string, token: string | null = operator) {
  const res = await fetch(`${url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
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
  expect(createRequestValidator().check('PiiAccessPage', res.body)).toBeUndefined();
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
])('refuses %s with 400 invalidRequest, without a call', async (query) => {
  const res = await get(`/pii-access?${query}`);
  expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
  expect(calls).toEqual([]);
});

it("passes the service's refusal of a page token through as 400", async () => {
  planned.set('listPiiAccess', invalidArgument('Invalid page token'));
  const res = await get('/pii-access?pageToken=forged');
  expect([res.status, res.body]).toEqual([400, { systemErrorMessage: 'Invalid page token' }]);
});
