import {
  freshDatabase,
  realServersEnv,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';

// `eligo start --target all` on the production path: real Postgres, Kafka and MinIO.
const token = `eligo_admin_${'e2e'.repeat(10)}`;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let data: ReturnType<typeof tempDataDir>;
let eligo: EligoProcess;

beforeAll(async () => {
  db = await freshDatabase();
  data = tempDataDir();
  eligo = await startEligo(['start', '--target', 'all'], {
    ...realServersEnv(db.url),
    ELIGO_ADMIN_TOKEN: token,
    ELIGO_DATA_DIR: data.dir,
  });
  await waitReady(eligo);
}, 120_000);

afterAll(async () => {
  await eligo?.stop('SIGKILL');
  await db?.drop();
  data?.remove();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${eligo.httpUrl}${path}`, { headers });

it('answers GET /rest/v2/info for the operator token with every module serving', async () => {
  const res = await get('/rest/v2/info', { authorization: `Bearer ${token}` });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { apiVersion: string; modules: { module: string; status: string }[] };
  expect(body.apiVersion).toBe('2.0.0');
  expect(body.modules.map((m) => [m.module, m.status]).sort()).toEqual(
    ['documents', 'notifier', 'organizations', 'programs', 'reports', 'verification'].map((m) => [
      m,
      'SERVING',
    ]),
  );
});

it.each([
  ['no header', {}],
  ['an empty bearer', { authorization: 'Bearer ' }],
  ['a wrong token', { authorization: `Bearer ${token}x` }],
  ['another scheme', { authorization: `Basic ${Buffer.from(`a:${token}`).toString('base64')}` }],
])('refuses %s with 401 and a systemErrorMessage', async (_name, headers) => {
  const res = await get('/rest/v2/info', headers);
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ systemErrorMessage: expect.stringMatching(/empty or invalid/) });
});

it('serves the OpenAPI 3.1 document describing /info and its 401', async () => {
  const res = await get('/rest/v2/openapi.json');
  expect(res.status).toBe(200);
  const doc = (await res.json()) as {
    openapi: string;
    paths: Record<string, { get?: { responses: object } }>;
  };
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths['/info']!.get!.responses)).toEqual(expect.arrayContaining(['200', '401']));
});

it('limits request bodies (413 with an error body) and rejects malformed JSON (400 invalidRequest)', async () => {
  const big = await fetch(`${eligo.httpUrl}/rest/v2/verification`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
  });
  expect(big.status).toBe(413);
  expect(await big.json()).toEqual({ errorIds: ['invalidRequest'], systemErrorMessage: expect.any(String) });
  const bad = await fetch(`${eligo.httpUrl}/rest/v2/verification`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"programId": ',
  });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({ errorIds: ['invalidRequest'], systemErrorMessage: expect.any(String) });
});

it('answers probes and exposes module-labelled metrics', async () => {
  expect((await get('/healthz')).status).toBe(200);
  expect((await get('/readyz')).status).toBe(200);
  await get('/rest/v2/info', { authorization: `Bearer ${token}` });
  const metrics = await (await get('/metrics')).text();
  expect(metrics).toMatch(/grpc_server_handled_total\{[^}]*grpc_method="GetInfo"/);
  expect(metrics).toMatch(/grpc_client_[a-z_]+\{[^}]*module="gateway"/);
  expect(metrics).toContain('process_cpu_user_seconds_total');
});

it('drains on SIGTERM: unready, then a clean exit 0 with the database connections closed', async () => {
  const code = await eligo.stop('SIGTERM');
  expect(code).toBe(0);
  const out = eligo.output();
  expect(out.indexOf('shutting down')).toBeGreaterThan(-1);
  expect(out.indexOf('"msg":"stopped"')).toBeGreaterThan(out.indexOf('shutting down'));
  expect(out).not.toContain(token);
});
