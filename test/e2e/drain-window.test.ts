import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import {
  freshDatabase,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';

// SIGTERM opens a drain window (ELIGO_SHUTDOWN_DELAY_MS): /readyz answers 503 so that a load balancer takes
// the instance out, while requests are still served; only then the listener closes and in-flight requests end.
const DELAY_MS = 2500;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let data: ReturnType<typeof tempDataDir>;
let eligo: EligoProcess;

beforeAll(async () => {
  db = await freshDatabase();
  data = tempDataDir();
  eligo = await startEligo(['start', '--target', 'all'], {
    ELIGO_DATABASE_URL: db.url,
    ELIGO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ELIGO_ADMIN_TOKEN: `eligo_admin_${'drain'.repeat(6)}`,
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_SHUTDOWN_DELAY_MS: String(DELAY_MS),
  });
  await waitReady(eligo, 120_000);
}, 150_000);

afterAll(async () => {
  await eligo?.stop('SIGKILL');
  await db?.drop();
  data?.remove();
});

/** A POST whose body arrives in two parts: the request is in flight until end() sends the rest. */
function slowRequest(url: string): { end(): void; response: Promise<number> } {
  const req = request(`${url}/rest/v2/verification`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': '2' },
  });
  const response = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write('{');
  return { end: () => req.end('}'), response };
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

it('keeps serving with /readyz 503 for the delay, then closes the port, finishes in-flight requests, exits 0', async () => {
  const port = Number(new URL(eligo.httpUrl).port);
  const slow = slowRequest(eligo.httpUrl);
  await new Promise((r) => setTimeout(r, 200));
  const sigterm = Date.now();
  const exited = eligo.stop('SIGTERM', 30_000);
  await new Promise((r) => setTimeout(r, 300));

  // Inside the window: unready, yet a normal request is still answered.
  const ready = await fetch(`${eligo.httpUrl}/readyz`);
  expect(ready.status).toBe(503);
  const openapi = await fetch(`${eligo.httpUrl}/rest/v2/openapi.json`);
  expect(openapi.status).toBe(200);
  expect(Date.now() - sigterm).toBeLessThan(DELAY_MS);

  // After the window the listener is closed, while the slow request is still in flight.
  while (await portOpen(port)) {
    expect(Date.now() - sigterm).toBeLessThan(DELAY_MS + 3000);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(Date.now() - sigterm).toBeGreaterThanOrEqual(DELAY_MS - 100);
  slow.end();
  // The body was an empty JSON object, refused by validation: what matters is an answer, not a reset.
  expect(await slow.response).toBe(400);
  expect(await exited).toBe(0);
  expect(eligo.output()).toContain('drain window');
}, 60_000);
