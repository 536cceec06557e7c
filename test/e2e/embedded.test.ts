import { spawnSync } from 'node:child_process';
import { eligoCli, startEligo, tempDataDir, waitReady, type EligoProcess } from '../support/eligo-process';

// What `npm start` does on a fresh machine: no ELIGO_DATABASE_URL, Kafka or S3, only embedded defaults.
let data: ReturnType<typeof tempDataDir>;
let eligo: EligoProcess | undefined;

beforeAll(() => {
  data = tempDataDir();
});

afterAll(async () => {
  await eligo?.stop('SIGKILL');
  data.remove();
});

it('starts everything on embedded defaults, prints the URL and operator token, and answers /info', async () => {
  eligo = await startEligo(['start'], { ELIGO_DATA_DIR: data.dir });
  await waitReady(eligo, 120_000);
  const out = eligo.output();
  expect(out).toContain('Eligo is running');
  const token = /operator token[^:]*: (eligo_admin_\S+)/.exec(out)?.[1];
  expect(token).toBeDefined();
  const res = await fetch(`${eligo.httpUrl}/rest/v2/info`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { modules: { status: string }[] };
  expect(body.modules.every((m) => m.status === 'SERVING')).toBe(true);
  expect(out).toContain('"kind":"in-process"');
  expect(out).toContain('"kind":"filesystem"');

  // Restarted on the same data dir: the database is reused and the token stays the same.
  expect(await eligo.stop('SIGTERM')).toBe(0);
  eligo = await startEligo(['start'], { ELIGO_DATA_DIR: data.dir });
  await waitReady(eligo, 60_000);
  expect(eligo.output()).toContain(token!);
  expect(eligo.output()).toContain('"fresh":false');
  expect(await eligo.stop('SIGTERM')).toBe(0);
}, 180_000);

it('prints the effective configuration with secrets masked', () => {
  const res = spawnSync(process.execPath, [eligoCli, 'start', '--print-config'], {
    env: {
      PATH: process.env.PATH,
      ELIGO_ADMIN_TOKEN: 'eligo_admin_abcdefghijklmnopqrstuvwxyz',
      ELIGO_DATABASE_URL: 'postgres://eligo:s3cret-pw@db:5432/eligo',
      ELIGO_S3_ENDPOINT: 'http://minio:9000',
      ELIGO_S3_ACCESS_KEY: 'AKIAEXAMPLE',
      ELIGO_S3_SECRET_KEY: 'wJalrXUtnFEMI-secret',
    },
  });
  expect(res.status).toBe(0);
  const text = res.stdout.toString();
  const printed = JSON.parse(text) as { targets: string[]; config: { database: { url: string } } };
  expect(printed.targets).toHaveLength(7);
  expect(printed.config.database.url).toBe('postgres://eligo:****@db:5432/eligo');
  for (const secret of ['abcdefghijklmnopqrstuvwxyz', 's3cret-pw', 'wJalrXUtnFEMI-secret', 'AKIAEXAMPLE']) {
    expect(text).not.toContain(secret);
  }
});

it('stops at boot with a message naming a bad variable', () => {
  const res = spawnSync(process.execPath, [eligoCli, 'start'], {
    env: { PATH: process.env.PATH, ELIGO_HTTP_PORT: 'eighty' },
  });
  expect(res.status).toBe(2);
  expect(res.stderr.toString()).toContain('ELIGO_HTTP_PORT');
});
