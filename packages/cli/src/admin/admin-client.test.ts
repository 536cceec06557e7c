import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminApiError, adminRequest, adminUpload, failureCause, resolveAdminTarget } from './admin-client';
import { run } from './cli-action';

describe('resolveAdminTarget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eligo-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers flags, then ELIGO_ADMIN_URL / ELIGO_ADMIN_TOKEN', () => {
    const env = { ELIGO_ADMIN_URL: 'http://env:1/', ELIGO_ADMIN_TOKEN: 'env-token' };
    expect(resolveAdminTarget({}, env)).toEqual({ baseUrl: 'http://env:1', token: 'env-token' });
    expect(resolveAdminTarget({ url: 'http://flag:2', token: 'flag-token' }, env)).toEqual({
      baseUrl: 'http://flag:2',
      token: 'flag-token',
    });
  });

  it('falls back to the public base URL, then localhost on ELIGO_HTTP_PORT', () => {
    const token = { ELIGO_ADMIN_TOKEN: 't' };
    expect(resolveAdminTarget({}, { ...token, ELIGO_PUBLIC_BASE_URL: 'https://eligo.example' }).baseUrl).toBe(
      'https://eligo.example',
    );
    expect(resolveAdminTarget({}, { ...token, ELIGO_HTTP_PORT: '9000' }).baseUrl).toBe(
      'http://localhost:9000',
    );
  });

  it('reads the token npm start generated in the data dir', () => {
    writeFileSync(join(dir, 'admin-token'), 'eligo_admin_from_file\n');
    expect(resolveAdminTarget({}, { ELIGO_DATA_DIR: dir }).token).toBe('eligo_admin_from_file');
  });

  it('names what to set when there is no token', () => {
    expect(() => resolveAdminTarget({}, { ELIGO_DATA_DIR: join(dir, 'missing') })).toThrow(
      /ELIGO_ADMIN_TOKEN/,
    );
  });
});

/** The error a call rejects with (a call that resolves fails the test). */
async function failure(call: Promise<unknown>): Promise<Error & { body?: unknown }> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: Error) => err,
  );
}

describe('failures', () => {
  const token = 'eligo_operator_secret_0123456789';
  const dir = mkdtempSync(join(tmpdir(), 'eligo-cli-'));
  let closedPort: number;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => probe.once('listening', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ systemErrorMessage: 'No endpoint' }));
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the URL tried and the cause when nothing answers', async () => {
    const base = `http://127.0.0.1:${closedPort}`;
    const err = await failure(adminRequest({ baseUrl: base, token }, 'POST', '/accounts', { name: 'x' }));
    expect(err.message).toBe(
      `could not reach ${base}/rest/admin/v1/accounts: connect ECONNREFUSED 127.0.0.1:${closedPort}`,
    );
    expect(err.message).not.toContain(token);
  });

  it('does the same for an upload', async () => {
    const file = join(dir, 'orgs.csv');
    writeFileSync(file, 'externalId,name\n');
    const base = `http://127.0.0.1:${closedPort}`;
    const err = await failure(adminUpload({ baseUrl: base, token }, '/organizations', file, 'text/csv'));
    expect(err.message).toBe(
      `could not reach ${base}/rest/admin/v1/organizations: connect ECONNREFUSED 127.0.0.1:${closedPort}`,
    );
  });

  it('names the method and URL of an HTTP error answer, and keeps its body', async () => {
    const err = await failure(adminRequest({ baseUrl: origin, token }, 'GET', '/programs/p1?x=1'));
    expect(err).toBeInstanceOf(AdminApiError);
    expect(err.message).toBe(`HTTP 404 from GET ${origin}/rest/admin/v1/programs/p1?x=1`);
    expect(err.body).toEqual({ systemErrorMessage: 'No endpoint' });
  });

  it('never prints the token, even where fetch quotes it', async () => {
    const bad = `${token}\nx`;
    const err = await failure(adminRequest({ baseUrl: origin, token: bad }, 'GET', '/accounts'));
    expect(err.message).toMatch(/^could not reach http:\/\/127\.0\.0\.1:\d+\/rest\/admin\/v1\/accounts: /);
    expect(err.message).not.toContain(token);
  });

  it.each<[string, unknown, string]>([
    [
      'a time-out',
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      'no answer within 30 s',
    ],
    [
      'every address of a name refusing',
      new TypeError('fetch failed', {
        cause: Object.assign(
          new AggregateError([
            Object.assign(new Error('connect ECONNREFUSED ::1:8080'), { code: 'ECONNREFUSED' }),
            Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED' }),
          ]),
          { code: 'ECONNREFUSED' },
        ),
      }),
      'connect ECONNREFUSED ::1:8080; connect ECONNREFUSED 127.0.0.1:8080',
    ],
    [
      'a TLS error',
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      }),
      'self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)',
    ],
  ])('describes %s', (_, err, text) => {
    expect(failureCause(err)).toBe(text);
  });

  it('prints `eligo admin: could not reach ...` on stderr and exits 1', async () => {
    const stderr: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr.push(String(chunk));
      return true;
    });
    const base = `http://127.0.0.1:${closedPort}`;
    try {
      await run(() => adminRequest({ baseUrl: base, token }, 'GET', '/accounts'))();
      expect(process.exitCode).toBe(1);
    } finally {
      write.mockRestore();
      process.exitCode = undefined;
    }
    expect(stderr.join('')).toBe(
      `eligo admin: could not reach ${base}/rest/admin/v1/accounts: connect ECONNREFUSED 127.0.0.1:${closedPort}\n`,
    );
  });

  it('prints the method, URL and body of an HTTP error answer', async () => {
    const stderr: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr.push(String(chunk));
      return true;
    });
    try {
      await run(() => adminRequest({ baseUrl: origin, token }, 'DELETE', '/accounts/a1'))();
    } finally {
      write.mockRestore();
      process.exitCode = undefined;
    }
    expect(stderr.join('')).toBe(
      `eligo admin: HTTP 404 from DELETE ${origin}/rest/admin/v1/accounts/a1\n` +
        `${JSON.stringify({ systemErrorMessage: 'No endpoint' }, null, 2)}\n`,
    );
  });
});
