import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { organizationsV1 } from '@eligo/proto';
import pino from 'pino';
import type { OrganizationsClient } from '../../clients/organizations.client';
import { errorMiddleware } from '../../errors';
import { adminOrganizationImportRouter } from './organizations';
import { standIn } from '../../../test/stand-in';

// The import's HTTP behaviour without the organizations service: a fake stores batches. The real service is
// covered end to end (test/e2e/organizations.e2e.test.ts).
const MAX_BYTES = 4096;
const batches: number[][] = [];
let url: string;
let server: Server;

beforeAll(async () => {
  const organizations = standIn<OrganizationsClient>('organizations', {
    importOrganizations: async (req: organizationsV1.ImportOrganizationsRequest) => {
      batches.push(req.rows.map((r) => r.line));
      return { created: req.rows.length, updated: 0, unchanged: 0, rejected: [] };
    },
  });
  const app = express();
  app.use(adminOrganizationImportRouter({ organizations, maxBytes: MAX_BYTES, batchDeadlineMs: 1000 }));
  // As in rest-app.ts: the JSON parser comes after the import and must never see its body.
  app.use(express.json({ limit: '100b' }));
  app.use(errorMiddleware(pino({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/organizations`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => (batches.length = 0));

const csvRow = (i: number) => `k${i},Org ${i},OTHER,US,\n`;
const csv = (rows: number) =>
  `externalId,name,type,country,domains\n${Array.from({ length: rows }, (_, i) => csvRow(i)).join('')}`;
const post = (body: string, contentType: string, extra: RequestInit = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body, ...extra });

/** A body sent in pieces with no Content-Length, so the limit can only be found by counting. */
function streamed(text: string, pieceBytes = 256): RequestInit {
  const bytes = Buffer.from(text);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, (at += pieceBytes)));
    },
  });
  return { body, duplex: 'half' } as RequestInit;
}

it('imports a CSV body of a larger size than the JSON body limit', async () => {
  const res = await post(csv(40), 'text/csv; charset=utf-8');
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    received: 40,
    created: 40,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    errors: [],
  });
  expect(batches).toEqual([Array.from({ length: 40 }, (_, i) => i + 2)]);
});

it('accepts NDJSON as application/x-ndjson and application/jsonl', async () => {
  const line = JSON.stringify({ externalId: 'a', name: 'A', type: 'OTHER', country: 'US' });
  for (const type of ['application/x-ndjson', 'application/jsonl']) {
    const res = await post(`${line}\n\n${line}\n`, type);
    expect([type, res.status, ((await res.json()) as { received: number }).received]).toEqual([type, 200, 2]);
  }
  expect(batches).toEqual([
    [1, 3],
    [1, 3],
  ]);
});

it('answers 413 once a streamed body passes the limit, after reading it off, and stops calling the service', async () => {
  const text = csv(1000); // about 25 KB, six times the limit
  const res = await post('', 'text/csv', streamed(text));
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({
    errorIds: ['invalidRequest'],
    systemErrorMessage: expect.stringMatching(/larger than the limit of 4096 bytes.*0 created/),
  });
  expect(batches).toEqual([]);
});

it('answers 413 for a declared Content-Length over the limit without calling the service', async () => {
  const res = await post(csv(200), 'text/csv');
  expect(res.status).toBe(413);
  expect(batches).toEqual([]);
});

it.each([
  ['JSON', 'application/json', '{"rows":[]}'],
  ['form data', 'application/x-www-form-urlencoded', 'a=1'],
  ['CSV in another charset', 'text/csv; charset=latin1', 'externalId'],
])('answers 415 to %s', async (_name, type, body) => {
  const res = await post(body, type);
  expect(res.status).toBe(415);
  expect(await res.json()).toEqual({
    errorIds: ['invalidRequest'],
    systemErrorMessage: expect.stringContaining('Content-Type must be text/csv or application/x-ndjson'),
  });
});

it('answers 400 for a malformed CSV after storing the rows before the break', async () => {
  const res = await post(`${csv(3)}x,"broken,OTHER,US,\n`, 'text/csv');
  expect(res.status).toBe(400);
  const body = (await res.json()) as { systemErrorMessage: string };
  expect(body.systemErrorMessage).toMatch(/malformed CSV at line \d+.*3 created.*idempotent/);
  expect(batches).toEqual([[2, 3, 4]]);
});

it('ends the import, storing nothing more, when the client abandons the upload', async () => {
  const controller = new AbortController();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      // A header and a few rows, then the client stalls and gives up.
      if (sent++ < 3) c.enqueue(Buffer.from(sent === 1 ? csv(5) : csvRow(100 + sent)));
      else return new Promise(() => setTimeout(() => controller.abort(), 50));
    },
  });
  const upload = fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body,
    duplex: 'half',
    signal: controller.signal,
  } as RequestInit);
  await expect(upload).rejects.toThrow();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(batches).toEqual([]);
  // The server is not wedged by the abandoned request.
  expect((await post(csv(1), 'text/csv')).status).toBe(200);
});
