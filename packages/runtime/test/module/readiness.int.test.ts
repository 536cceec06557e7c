import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import type { ModuleName } from '../../src/config/schema';
import type { ModuleDefinition } from '../../src/module/deps';
import { launch, type RunningProcess } from '../../src/module/launcher';
import { createServiceModule } from '../../src/module/service-module';
import { dropSchema, randomName, testDb, testInfra, testLogger, waitFor } from '../events/helpers';

/** A TCP proxy in front of Postgres that the test cuts and restores, like an outage of the database. */
class DatabaseLink {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

const infra = testInfra();
const schema = randomName('ready_');
const target = new URL(infra.databaseUrl);
const link = new DatabaseLink({ host: target.hostname, port: Number(target.port) });
const dataDir = mkdtempSync(join(tmpdir(), 'eligo-readiness-'));
let running: RunningProcess | undefined;

afterAll(async () => {
  if (running) {
    await running.shutdown('test done');
    await running.exited;
  }
  await link.cut().catch(() => undefined);
  const db = testDb(infra.databaseUrl);
  await dropSchema(db, schema);
  await db.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const readyz = async (): Promise<number> =>
  (await fetch(`http://127.0.0.1:${running!.info.httpPort}/readyz`)).status;

it('answers /readyz 503 while the database is unreachable, and 200 again once it is back', async () => {
  await link.open();
  const url = new URL(infra.databaseUrl);
  url.host = `127.0.0.1:${link.port}`;
  const config = loadConfig({
    ELIGO_HTTP_PORT: '0',
    ELIGO_GRPC_PORT: '0',
    ELIGO_BIND_HOST: '127.0.0.1',
    ELIGO_DATA_DIR: dataDir,
    ELIGO_LOG_LEVEL: process.env.ELIGO_TEST_LOG_LEVEL ?? 'silent',
    ELIGO_ADMIN_TOKEN: `eligo_admin_${randomBytes(12).toString('hex')}`,
    ELIGO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ELIGO_DATABASE_URL: url.toString(),
    ELIGO_SHUTDOWN_GRACE_MS: '1000',
  });
  const programs: ModuleDefinition = {
    dependsOn: [],
    createModule: (cfg, deps) =>
      createServiceModule(
        { name: 'programs', dependsOn: [], schema, migrations: [], poolMax: 2, grpcServices: () => [] },
        cfg,
        deps,
      ),
  };
  running = await launch({
    config,
    targets: ['programs'],
    modules: { programs } as Record<ModuleName, ModuleDefinition>,
    logger: testLogger(),
    version: '0.0.0-test',
    gitCommit: '',
  });
  expect(await readyz()).toBe(200);

  await link.cut();
  await waitFor('/readyz 503', async () => (await readyz()) === 503, { timeoutMs: 15_000 });
  await link.open(); // the same port: the pools reconnect on their own
  await waitFor('/readyz 200', async () => (await readyz()) === 200, { timeoutMs: 15_000 });
}, 60_000);
