import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findPostgresBinaries, postgresServerUser, type PostgresBinaries } from '@eligo/runtime';
import { ENV } from './config';
import { InfraError } from './errors';
import { timed } from './log';
import { freePort } from './ports';
import { runCommand } from './command';
import { spawnDetached, stopProcess, type Spawned } from './process';
import type { ServiceRecord, StartContext } from './types';
import { waitUntilReady } from './wait';

/** The shared lookup (also used by `npm start`), with the harness's own error type. */
function binaries(): PostgresBinaries {
  try {
    return findPostgresBinaries();
  } catch (err) {
    throw new InfraError((err as Error).message);
  }
}

export async function startLocalPostgres(ctx: StartContext): Promise<ServiceRecord> {
  const bin = binaries();
  const ids = postgresServerUser(ctx.log);
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
