import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eligoCli, startEligo, tempDataDir, waitReady, type EligoProcess } from '../support/eligo-process';
import { programsApi } from '../support/programs-api';

// The embedded default owns one Postgres per data dir: a second eligo process on that dir (here `eligo
// migrate`) uses the running server instead of stopping it, and a server that loses its database exits
// non-zero so that its supervisor restarts it.
const token = `eligo_admin_${'shared'.repeat(5)}`;
let data: ReturnType<typeof tempDataDir>;
let eligo: EligoProcess | undefined;

beforeAll(() => {
  data = tempDataDir();
});

afterAll(async () => {
  await eligo?.stop('SIGKILL');
  data.remove();
});

const start = async (): Promise<EligoProcess> => {
  eligo = await startEligo(['start'], { ELIGO_DATA_DIR: data.dir, ELIGO_ADMIN_TOKEN: token });
  await waitReady(eligo, 120_000);
  return eligo;
};

function migrate(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [eligoCli, 'migrate', '--target', 'programs'], {
      env: { PATH: process.env.PATH, ELIGO_DATA_DIR: data.dir, ELIGO_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

it('runs `eligo migrate` beside a running server without stopping its database', async () => {
  const server = await start();
  const api = programsApi({ httpUrl: server.httpUrl, adminToken: token });
  expect((await api.admin('POST', '/accounts', { body: { name: 'Before' } })).status).toBe(201);

  const migrated = await migrate();
  expect(migrated.code).toBe(0);
  expect((await api.admin('POST', '/accounts', { body: { name: 'After' } })).status).toBe(201);
  expect((await fetch(`${server.httpUrl}/readyz`)).status).toBe(200);
  expect(migrated.output).toContain('sharing the embedded postgres');
  expect(await server.stop('SIGTERM')).toBe(0);
}, 180_000);

it('exits non-zero when its embedded postgres stops under it, and starts again on the same data', async () => {
  const server = await start();
  const postmaster = Number(
    readFileSync(join(data.dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  process.kill(postmaster, 'SIGINT'); // what an earlier `eligo migrate` did to it
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    server.exited,
    new Promise<string>((r) => (timer = setTimeout(() => r('still running'), 20_000))),
  ]);
  clearTimeout(timer);
  expect(code).toBe(1);
  expect(server.output()).toContain('embedded postgres exited');

  const again = await start();
  const api = programsApi({ httpUrl: again.httpUrl, adminToken: token });
  expect((await api.admin('POST', '/accounts', { body: { name: 'Again' } })).status).toBe(201);
  expect(await again.stop('SIGTERM')).toBe(0);
}, 240_000);
