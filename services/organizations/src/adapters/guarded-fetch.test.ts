import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallBreaker, NO_ALLOWED_CIDRS, parseAllowCidrs, type AllowCidrs } from '@eligo/runtime';
import { guardedFetch, ProviderUnreachable } from './guarded-fetch';

// The fetch openid-client calls providers with, against a real local server: what it sends and answers, and
// the address rules (SSRF) it keeps whatever URL a provider's discovery names.
const loopback = parseAllowCidrs('127.0.0.0/8');
let status = 200;
let body = '{"ok":true}';
let hang = false;
const received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
let server: http.Server;
let base: string;
const breakers: CallBreaker[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      if (hang) return;
      res.writeHead(status, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const b of breakers) b.shutdown();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  [status, body, hang] = [200, '{"ok":true}', false];
  received.length = 0;
});

function fetcher(allow: AllowCidrs = loopback, maxResponseBytes?: number) {
  const breaker = new CallBreaker('test provider', {
    volumeThreshold: 3,
    errorThresholdPercentage: 50,
    resetTimeoutMs: 60_000,
    rollingWindowMs: 60_000,
    isFailure: () => true,
  });
  breakers.push(breaker);
  return { breaker, fetch: guardedFetch({ allowCidrs: allow, breaker, maxResponseBytes }) };
}
const get = {
  method: 'GET',
  headers: { accept: 'application/json' },
  body: undefined,
  redirect: 'manual',
} as const;

it('sends the request as given and answers a Response with status, headers and body', async () => {
  const { fetch } = fetcher();
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'abc' });
  const res = await fetch(`${base}/token?x=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect([res.status, await res.json(), res.headers.getSetCookie()]).toEqual([
    200,
    { ok: true },
    ['a=1', 'b=2'],
  ]);
  expect(received[0]).toMatchObject({ method: 'POST', url: '/token?x=1', body: form.toString() });
  expect(received[0]!.headers['content-length']).toBe(String(form.toString().length));
});

it('never follows a redirect', async () => {
  status = 302;
  body = '';
  const res = await fetcher().fetch(`${base}/`, get);
  expect(res.status).toBe(302);
  expect(received).toHaveLength(1);
});

it.each([
  ['plain http outside the allow list', 'http://127.0.0.1:1/', NO_ALLOWED_CIDRS, /must use https/],
  ['a blocked address', 'https://169.254.169.254/latest', loopback, /blocked address \(linkLocal\)/],
  [
    'a name that resolves to a blocked address',
    'https://localhost:1/',
    NO_ALLOWED_CIDRS,
    /resolves to a blocked address/,
  ],
  ['credentials in the URL', 'https://user:pw@example.com/', loopback, /user name or password/],
])('refuses %s without connecting', async (_name, url, allow, message) => {
  const err = await fetcher(allow)
    .fetch(url, get)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderUnreachable);
  expect((err as Error).message).toMatch(message);
  expect((err as Error).message).not.toMatch(/127\.0\.0\.1|169\.254|::1/);
  expect(received).toHaveLength(0);
});

it('gives up at the deadline the library sets', async () => {
  hang = true;
  const err = await fetcher()
    .fetch(`${base}/`, { ...get, signal: AbortSignal.timeout(100) })
    .catch((e: unknown) => e);
  expect((err as Error).message).toBe('the provider did not answer in time');
});

it('refuses an answer longer than it reads', async () => {
  body = 'x'.repeat(5000);
  const err = await fetcher(loopback, 1000)
    .fetch(`${base}/`, get)
    .catch((e: unknown) => e);
  expect((err as Error).message).toBe('the provider answered more than we read');
});

it('counts 5xx answers against the breaker, then fails fast', async () => {
  status = 503;
  const { fetch, breaker } = fetcher();
  for (let i = 0; i < 3; i += 1) expect((await fetch(`${base}/`, get)).status).toBe(503);
  expect(breaker.state).toBe('open');
  const err = await fetch(`${base}/`, get).catch((e: unknown) => e);
  expect((err as Error).message).toBe('the provider failed too often lately: not called for a while');
  expect(received).toHaveLength(3);
});
