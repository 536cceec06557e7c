import { randomBytes, randomUUID } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createWebhookSender, type WebhookSenderOptions } from './webhook-sender';
import { NO_ALLOWED_CIDRS, parseAllowCidrs } from '@eligo/runtime';
import type { WebhookAttempt } from '../app/ports';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  method: string | undefined;
  url: string | undefined;
}

interface TestServer {
  port: number;
  received: Received[];
}

const servers: http.Server[] = [];

/** A receiver on 127.0.0.1 that records what it gets, then answers with `answer` (or not at all). */
async function startServer(answer: (res: http.ServerResponse) => void): Promise<TestServer> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body, method: req.method, url: req.url });
      answer(res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, received };
}

const status =
  (code: number, headers: http.OutgoingHttpHeaders = {}) =>
  (res: http.ServerResponse) => {
    res.writeHead(code, headers);
    res.end('{"receiver":"text that must not matter"}');
  };

afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const loopback = parseAllowCidrs('127.0.0.0/8');

function attempt(url: string, extra: Partial<WebhookAttempt> = {}): WebhookAttempt {
  return {
    url,
    webhookId: `msg_${randomUUID()}`,
    timestamp: new Date(),
    body: JSON.stringify({ notifierEventType: 'EXPIRATION', verificationId: randomUUID() }),
    signingSecret: secret,
    eventType: 'EXPIRATION',
    requireHttps: false,
    ...extra,
  };
}

function sender(options: Partial<WebhookSenderOptions> = {}) {
  return createWebhookSender({ timeoutMs: 5000, allowCidrs: loopback, ...options });
}

describe('createWebhookSender', () => {
  it('delivers a signed POST that the receiver can verify', async () => {
    const server = await startServer(status(204));
    const sent = attempt(`http://127.0.0.1:${server.port}/hooks/eligo?program=p1`);
    const result = await sender().send(sent);

    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 204 });
    expect(result.error).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.received).toHaveLength(1);
    const [got] = server.received;
    expect(got?.method).toBe('POST');
    expect(got?.url).toBe('/hooks/eligo?program=p1');
    expect(got?.body).toBe(sent.body);
    expect(got?.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(sent.body)),
      'user-agent': 'Eligo-Webhooks/1.0',
      'webhook-id': sent.webhookId,
      'webhook-timestamp': String(Math.floor(sent.timestamp.getTime() / 1000)),
      'x-eligo-notifier-event-type': 'EXPIRATION',
    });
    expect(got?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(secret).verify(got?.body ?? '', got?.headers as Record<string, string>);
    expect(verified).toEqual(JSON.parse(sent.body));
    expect(() =>
      new Webhook(`whsec_${randomBytes(24).toString('base64')}`).verify(
        got?.body ?? '',
        got?.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  it('sends the same webhook-id on every attempt of a delivery, with a custom user agent', async () => {
    const server = await startServer(status(200));
    const first = attempt(`http://127.0.0.1:${server.port}/`);
    const webhook = sender({ userAgent: 'Eligo-Test/2' });
    await webhook.send(first);
    await webhook.send({ ...first, timestamp: new Date(first.timestamp.getTime() + 5000) });
    expect(server.received.map((r) => r.headers['webhook-id'])).toEqual([first.webhookId, first.webhookId]);
    expect(server.received.map((r) => r.headers['user-agent'])).toEqual(['Eligo-Test/2', 'Eligo-Test/2']);
  });

  it.each([
    [500, 'failed', 'receiver answered 500'],
    [404, 'failed', 'receiver answered 404'],
    [410, 'gone', 'receiver answered 410 (gone)'],
    [301, 'failed', 'redirect not followed (301)'],
  ])('answers %i → %s', async (code, outcome, error) => {
    const server = await startServer(status(code, { location: 'http://127.0.0.1:1/' }));
    const result = await sender().send(attempt(`http://127.0.0.1:${server.port}/`));
    expect(result).toMatchObject({ outcome, statusCode: code, error });
    expect(result.retryAfterMs).toBeUndefined();
  });

  it('reads Retry-After in seconds', async () => {
    const server = await startServer(status(503, { 'retry-after': '7' }));
    const result = await sender().send(attempt(`http://127.0.0.1:${server.port}/`));
    expect(result).toMatchObject({ outcome: 'failed', statusCode: 503, retryAfterMs: 7000 });
  });

  it('reads Retry-After as an HTTP date, and ignores garbage', async () => {
    const date = new Date(Date.now() + 60_000).toUTCString();
    const dated = await startServer(status(429, { 'retry-after': date }));
    const result = await sender().send(attempt(`http://127.0.0.1:${dated.port}/`));
    expect(result.retryAfterMs).toBeGreaterThan(55_000);
    expect(result.retryAfterMs).toBeLessThanOrEqual(60_000);

    const garbage = await startServer(status(503, { 'retry-after': 'later, maybe' }));
    const ignored = await sender().send(attempt(`http://127.0.0.1:${garbage.port}/`));
    expect(ignored).toMatchObject({ outcome: 'failed', statusCode: 503 });
    expect(ignored.retryAfterMs).toBeUndefined();
  });

  it('does not follow a redirect', async () => {
    const target = await startServer(status(200));
    const server = await startServer(status(302, { location: `http://127.0.0.1:${target.port}/` }));
    const result = await sender().send(attempt(`http://127.0.0.1:${server.port}/`));
    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: 302,
      error: 'redirect not followed (302)',
    });
    expect(server.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it('keeps the connection for the next webhook to the same receiver', async () => {
    const server = await startServer(status(204));
    let connections = 0;
    servers.at(-1)!.on('connection', () => connections++);
    const send = sender();
    const url = `http://127.0.0.1:${server.port}/`;
    for (let i = 0; i < 3; i++) expect((await send.send(attempt(url))).outcome).toBe('delivered');
    expect([server.received.length, connections]).toEqual([3, 1]);
  });

  it('sends again at once on a new connection when the receiver closed the kept one', async () => {
    // The receiver answers the first request of each connection and drops any later one unanswered, as a
    // server does whose idle timeout ends just as the connection is reused.
    const requestsOn = new WeakMap<object, number>();
    let connections = 0;
    const server = http.createServer((req, res) => {
      const n = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, n);
      req.resume();
      req.on('end', () => (n === 1 ? status(204)(res) : req.socket.destroy()));
    });
    server.on('connection', () => connections++);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const send = sender();
    expect((await send.send(attempt(url))).outcome).toBe('delivered');
    expect(await send.send(attempt(url))).toMatchObject({ outcome: 'delivered', statusCode: 204 });
    expect(connections).toBe(2);
  });

  it('does not keep a connection whose answer it cut', async () => {
    let connections = 0;
    const server = await startServer((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(256 * 1024)); // and never ends
    });
    servers.at(-1)!.on('connection', () => connections++);
    const send = sender({ maxResponseBytes: 1024 });
    const url = `http://127.0.0.1:${server.port}/`;
    expect((await send.send(attempt(url))).outcome).toBe('delivered');
    expect((await send.send(attempt(url))).outcome).toBe('delivered');
    expect(connections).toBe(2);
  });

  it('gives up on a receiver that never answers within the timeout', async () => {
    const server = await startServer(() => undefined);
    const result = await sender({ timeoutMs: 300 }).send(attempt(`http://127.0.0.1:${server.port}/`));
    expect(result).toMatchObject({ outcome: 'failed', statusCode: 0, error: 'no answer within 0.3 s' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
    expect(result.latencyMs).toBeLessThan(2000);
  });

  it('stops reading an answer longer than the limit instead of waiting for its end', async () => {
    const server = await startServer((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(256 * 1024)); // and never ends
    });
    const result = await sender({ maxResponseBytes: 1024 }).send(attempt(`http://127.0.0.1:${server.port}/`));
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(result.latencyMs).toBeLessThan(5000);
  });

  it('fails, without naming the address, when nothing listens', async () => {
    const server = await startServer(status(200));
    const port = server.port;
    await new Promise((resolve) => servers.splice(0)[0]?.close(resolve));
    const result = await sender().send(attempt(`http://127.0.0.1:${port}/`));
    expect(result).toEqual({
      outcome: 'failed',
      statusCode: 0,
      error: 'connection failed (ECONNREFUSED)',
      latencyMs: expect.any(Number),
    });
  });

  it('chooses TLS by the URL scheme', async () => {
    const server = await startServer(status(200));
    const result = await sender().send(attempt(`https://127.0.0.1:${server.port}/`, { requireHttps: true }));
    // A plain HTTP server cannot complete a TLS handshake: the attempt fails, and nothing is received.
    expect(result.outcome).toBe('failed');
    expect(result.error).toMatch(/^connection failed \(/);
    expect(server.received).toHaveLength(0);
  });
});

describe('createWebhookSender refusals', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer(status(200));
  });
  afterEach(() => {
    expect(server.received).toHaveLength(0);
  });

  async function refused(url: string, error: string, options: Partial<WebhookSenderOptions> = {}) {
    const result = await sender(options).send(attempt(url.replace('PORT', String(server.port))));
    expect(result).toEqual({ outcome: 'refused', statusCode: 0, error, latencyMs: expect.any(Number) });
  }

  const blocked = (range: string) => `callback host is a blocked address (${range})`;
  const none = { allowCidrs: NO_ALLOWED_CIDRS };

  it('refuses 127.0.0.1 without the allow-list', () =>
    refused('http://127.0.0.1:PORT/', blocked('loopback'), none));
  it('refuses a name resolving to loopback', () =>
    refused('http://localhost:PORT/', 'callback host resolves to a blocked address (loopback)', none));
  it('refuses a decimal host (the URL parser reads it as 127.0.0.1)', () =>
    refused('http://2130706433:PORT/', blocked('loopback'), none));
  it('refuses a hex-dotted host', () => refused('http://0x7f.1:PORT/', blocked('loopback'), none));
  it('refuses [::1]', () => refused('http://[::1]:PORT/', blocked('loopback')));
  it('refuses a mapped loopback without the allow-list', () =>
    refused('http://[::ffff:127.0.0.1]:PORT/', blocked('ipv4Mapped'), none));
  it('refuses the metadata address', () => refused('http://169.254.169.254/latest/', blocked('linkLocal')));
  it('refuses http when https is required', () =>
    refusedWith({ requireHttps: true }, 'http://127.0.0.1:PORT/', 'callback URL must use https'));
  it('refuses credentials in the URL', () =>
    refused('http://user:pass@127.0.0.1:PORT/', 'callback URL must not contain credentials'));
  it('refuses a user name alone in the URL', () =>
    refused('http://user@127.0.0.1:PORT/', 'callback URL must not contain credentials'));
  it('refuses other schemes', () => refused('ftp://127.0.0.1:PORT/', 'callback URL must use http or https'));
  it('refuses a malformed URL', () => refused('not a url', 'callback URL is not a valid URL'));
  it('refuses a signing secret that is not base64', () =>
    refusedWith({ signingSecret: 'whsec_***' }, 'http://127.0.0.1:PORT/', 'the signing secret is not valid'));

  async function refusedWith(extra: Partial<WebhookAttempt>, url: string, error: string) {
    const result = await sender().send(attempt(url.replace('PORT', String(server.port)), extra));
    expect(result).toMatchObject({ outcome: 'refused', statusCode: 0, error });
  }

  it('refuses a name when any of its addresses is blocked', async () => {
    mockLookup([
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
    await refused('http://hooks.example.test:PORT/', 'callback host resolves to a blocked address (private)');
  });
});

describe('createWebhookSender name resolution', () => {
  it('connects to the address it checked', async () => {
    const server = await startServer(status(200));
    const lookup = mockLookup([{ address: '127.0.0.1', family: 4 }]);
    const result = await sender().send(attempt(`http://hooks.example.test:${server.port}/`));
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(lookup).toHaveBeenCalledWith('hooks.example.test', { all: true }, expect.any(Function));
    expect(server.received[0]?.headers.host).toBe(`hooks.example.test:${server.port}`);
  });

  it('fails when the name does not resolve', async () => {
    const error = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((_host: string, _options: unknown, callback: LookupCallback) =>
        callback(error, [])) as unknown as typeof dns.lookup);
    const result = await sender().send(attempt('http://nowhere.example.test/'));
    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: 0,
      error: 'connection failed (ENOTFOUND)',
    });
  });
});

type LookupCallback = (error: Error | null, addresses: dns.LookupAddress[]) => void;

function mockLookup(addresses: dns.LookupAddress[]) {
  return jest
    .spyOn(dns, 'lookup')
    .mockImplementation(((_host: string, _options: unknown, callback: LookupCallback) =>
      process.nextTick(() => callback(null, addresses))) as unknown as typeof dns.lookup);
}
