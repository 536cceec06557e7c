import pino from 'pino';
import { Writable } from 'node:stream';
import { createMetricsRegistry } from '../metrics/registry';
import { createHttpServer, type HttpServer } from './server';

// The access log, the request id and the RED histogram of every Eligo HTTP server (http/access.ts).
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const registry = createMetricsRegistry({ defaultMetrics: false });
let server: HttpServer;
let origin: string;

beforeAll(async () => {
  server = createHttpServer({
    logger: pino({ level: 'info' }, sink),
    ready: async () => true,
    metrics: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    registry,
    mount: (app) => {
      app.get('/things/:thingId', (_req, res) => void res.json({ ok: true }));
      app.post('/named/:token', (_req, res) => {
        // What the gateway's route tables do: the endpoint definition names the route.
        res.locals.route = '/named/{token}';
        res.status(201).end();
      });
    },
  });
  const port = await server.listen('127.0.0.1', 0);
  origin = `http://127.0.0.1:${port}`;
});

afterAll(() => server.close(0));

const accessLines = () => lines.filter((line) => line.msg === 'request');

it('answers a new X-Request-Id and logs one line per request with the route template, never the path', async () => {
  const res = await fetch(`${origin}/things/secret-token-123`);
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  await new Promise((r) => setTimeout(r, 20));
  const line = accessLines().find((l) => l.requestId === id);
  expect(line).toMatchObject({ method: 'GET', route: '/things/:thingId', status: 200 });
  expect(typeof line!.ms).toBe('number');
  expect(JSON.stringify(lines)).not.toContain('secret-token-123');
});

it('keeps a plain X-Request-Id of the client, and replaces one that is not plain', async () => {
  const kept = await fetch(`${origin}/healthz`, { headers: { 'x-request-id': 'lb-42.abc' } });
  expect(kept.headers.get('x-request-id')).toBe('lb-42.abc');
  const replaced = await fetch(`${origin}/healthz`, { headers: { 'x-request-id': 'a b<script>' } });
  expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});

it('uses the route a module names, and counts every request by method, route and status', async () => {
  await fetch(`${origin}/named/tok_abcdef`, { method: 'POST' });
  await fetch(`${origin}/nowhere/at/all`);
  await new Promise((r) => setTimeout(r, 20));
  expect(accessLines()).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ method: 'POST', route: '/named/{token}', status: 201 }),
      expect.objectContaining({ method: 'GET', route: 'unmatched', status: 404 }),
    ]),
  );
  const text = await registry.metrics();
  expect(text).toContain(
    'eligo_http_request_duration_seconds_count{method="POST",route="/named/{token}",status="201"} 1',
  );
  expect(text).toContain(
    'eligo_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1',
  );
  expect(text).not.toContain('tok_abcdef');
});
