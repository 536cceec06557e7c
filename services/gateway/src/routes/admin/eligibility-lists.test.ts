import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { verificationEligibilityListV1 as v1 } from '@eligo/proto';
import { GrpcCallError } from '@eligo/runtime';
import { status as Status } from '@grpc/grpc-js';
import pino from 'pino';
import type { VerificationClient } from '../../clients/verification.client';
import { errorMiddleware } from '../../errors';
import { adminEligibilityListRouter } from './eligibility-lists';
import { standIn } from '../../../test/stand-in';

// The routes' HTTP behaviour without the verification service: a stand-in reads the import stream as the
// service would. The real service is covered by its integration test and test/e2e/eligibility-lists.e2e.test.ts.
const MAX_BYTES = 256 * 1024;
const PROGRAM = 'a'.repeat(24);
let messages: v1.ImportEligibilityListRequest[] = [];
let hasList = true;
let url: string;
let server: Server;

const version: v1.EligibilityListVersion = {
  programId: PROGRAM,
  version: 3,
  rowCount: 2,
  identifierCount: 2,
  createdAt: new Date(1_000),
  activatedAt: new Date(2_000),
  format: 'csv',
};

beforeAll(async () => {
  const verification = standIn<VerificationClient>('verification', {
    importEligibilityList: async (stream: AsyncIterable<v1.ImportEligibilityListRequest>) => {
      for await (const message of stream) messages.push(message);
      const rows = messages.flatMap((m) => (m.part?.$case === 'rows' ? m.part.rows.rows : []));
      const refused = rows.filter((r) => r.refusal);
      return {
        list: version,
        rowsRead: rows.length,
        rowsStored: rows.length - refused.length,
        rowsRefused: refused.length,
        duplicates: 0,
        refusals: refused.map((r) => ({ line: r.line, reason: r.refusal })),
      };
    },
    getEligibilityList: async () => {
      if (!hasList) throw new GrpcCallError(Status.NOT_FOUND, 'no list');
      return { list: version };
    },
    deleteEligibilityList: async () => {
      if (!hasList) throw new GrpcCallError(Status.NOT_FOUND, 'no list');
      return {};
    },
  });
  const app = express();
  app.use(adminEligibilityListRouter({ verification, maxBytes: MAX_BYTES }));
  // As in rest-app.ts: the JSON parser comes after and must never see the upload's body.
  app.use(express.json({ limit: '100b' }));
  app.use(errorMiddleware(pino({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/programs/${PROGRAM}/eligibility-list`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  messages = [];
  hasList = true;
});

const put = (body: string, contentType: string) =>
  fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
const sentRows = () => messages.flatMap((m) => (m.part?.$case === 'rows' ? m.part.rows.rows : []));

it('streams a CSV into a start message and batches of rows, with their lines', async () => {
  const body = `Email,memberId\n${Array.from({ length: 4500 }, (_, i) => `p${i}@x.org,m${i}\n`).join('')}`;
  const res = await put(body, 'text/csv');
  expect(res.status).toBe(200);
  expect(messages[0]).toEqual({ part: { $case: 'start', start: { programId: PROGRAM, format: 'csv' } } });
  expect(messages.slice(1).map((m) => (m.part?.$case === 'rows' ? m.part.rows.rows.length : -1))).toEqual([
    2000, 2000, 500,
  ]);
  expect(sentRows()[0]).toMatchObject({ line: 2, email: 'p0@x.org', memberId: 'm0', firstName: '' });
  expect(await res.json()).toEqual({
    list: {
      programId: PROGRAM,
      version: 3,
      format: 'csv',
      rows: 2,
      identifiers: 2,
      created: 1000,
      activated: 2000,
    },
    rowsRead: 4500,
    rowsStored: 4500,
    rowsRefused: 0,
    duplicates: 0,
    refusals: [],
  });
});

it('passes a CSV row with the wrong number of fields on as refused', async () => {
  const res = await put('email,memberId\na@x.org,1\nb@x.org\n', 'text/csv');
  expect(res.status).toBe(200);
  expect(((await res.json()) as { refusals: unknown }).refusals).toEqual([
    { line: 3, reason: 'the row does not have one value per header column' },
  ]);
});

it('reads NDJSON lines, refusing those of the wrong shape', async () => {
  const lines = [
    JSON.stringify({ email: 'a@x.org', firstName: 'Ann', lastName: 'Lee', birthDate: '2000-01-31' }),
    '',
    'not json',
    JSON.stringify({ email: 'b@x.org', phone: '1' }),
    JSON.stringify({ memberId: 42 }),
    JSON.stringify({ employeeId: 'E1', email: null }),
  ];
  const res = await put(lines.join('\n'), 'application/x-ndjson');
  expect(res.status).toBe(200);
  expect(messages[0]?.part).toMatchObject({ $case: 'start', start: { format: 'ndjson' } });
  expect(sentRows().map((r) => [r.line, r.refusal || r.email || r.employeeId])).toEqual([
    [1, 'a@x.org'],
    [3, 'not valid JSON'],
    [4, expect.stringContaining('unexpected property phone')],
    [5, 'memberId must be a string'],
    [6, 'E1'],
  ]);
});

it('refuses an unknown column, a body over the limit, another media type and a malformed id', async () => {
  const unknown = await put('email,phone\na@x.org,1\n', 'text/csv');
  expect(unknown.status).toBe(400);
  expect(((await unknown.json()) as { systemErrorMessage: string }).systemErrorMessage).toMatch(
    /unknown column "phone".*nothing was imported/,
  );
  const big = await put(`email\n${'p@x.org\n'.repeat(MAX_BYTES / 8 + 10)}`, 'text/csv');
  expect(big.status).toBe(413);
  expect((await put('{}', 'application/json')).status).toBe(415);
  const badId = await fetch(url.replace(PROGRAM, 'nope'), { method: 'GET' });
  expect(badId.status).toBe(404);
  expect(await badId.json()).toMatchObject({ errorIds: ['noProgram'] });
});

it('answers the active version, 404 without one, and deletes', async () => {
  const got = await fetch(url);
  expect(got.status).toBe(200);
  expect(await got.json()).toMatchObject({ version: 3, rows: 2, activated: 2000 });
  expect((await fetch(url, { method: 'DELETE' })).status).toBe(204);
  hasList = false;
  const none = await fetch(url);
  expect(none.status).toBe(404);
  expect(await none.json()).toEqual({
    errorIds: [],
    systemErrorMessage: 'The program has no eligibility list',
  });
  expect((await fetch(url, { method: 'DELETE' })).status).toBe(404);
});
