import pino from 'pino';
import { connect } from 'node:net';
import { createHttpServer, type HttpServer } from './server';
import { MAX_REQUEST_HEAD_BYTES } from './client-errors';

// Requests Node's HTTP parser refuses: answered with the API's SEM body rather than Node's empty one.
let server: HttpServer;
let port: number;

beforeAll(async () => {
  server = createHttpServer({
    logger: pino({ level: 'silent' }),
    ready: async () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
    mount: (app) => app.get('/things', (_req, res) => void res.json({ ok: true })),
  });
  port = await server.listen('127.0.0.1', 0);
});

afterAll(() => server.close(0));

/** Sends raw bytes and reads until the server closes the connection. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.on('data', (d: Buffer) => (reply += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(reply));
    socket.end(request);
  });
}

const bodyOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as unknown;

it('answers a URL longer than the head limit 431 with a SEM body', async () => {
  const query = Array.from({ length: 700 }, () => `ids=${'a'.repeat(24)}`).join('&');
  expect(query.length).toBeGreaterThan(MAX_REQUEST_HEAD_BYTES);
  const res = await fetch(`http://127.0.0.1:${port}/things?${query}`);
  expect(res.status).toBe(431);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await res.json()).toEqual({
    systemErrorMessage: `Request line and headers larger than ${MAX_REQUEST_HEAD_BYTES} bytes`,
  });
});

it('still serves a head just under the limit', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/things?q=${'a'.repeat(MAX_REQUEST_HEAD_BYTES - 400)}`);
  expect(res.status).toBe(200);
});

it('answers a malformed request 400 with a SEM body', async () => {
  const reply = await raw('GET /things HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
  expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  expect(bodyOf(reply)).toEqual({ systemErrorMessage: 'Malformed HTTP request' });
});
