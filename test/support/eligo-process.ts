import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

const repo = join(__dirname, '..', '..');
export const eligoCli = join(repo, 'packages/cli/dist/src/main.js');

/** A real `eligo` process started as an operator would, with its output kept for assertions. */
export interface EligoProcess {
  child: ChildProcess;
  httpUrl: string;
  grpcPort: number;
  output(): string;
  /** Sends the signal and resolves with the exit code; rejects with the output if it does not exit in time. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

export async function startEligo(
  args: string[],
  env: Record<string, string>,
  script = eligoCli,
  nodeArgs: string[] = [],
  /** cwd: the process's working directory; defaults: false starts it with `env` (and PATH) only. */
  options: { cwd?: string; defaults?: boolean } = {},
): Promise<EligoProcess> {
  // A port the caller chose (to put it in ELIGO_PUBLIC_BASE_URL) is kept.
  const httpPort = env.ELIGO_HTTP_PORT ? Number(env.ELIGO_HTTP_PORT) : await freePort();
  const grpcPort = env.ELIGO_GRPC_PORT ? Number(env.ELIGO_GRPC_PORT) : await freePort();
  const path = process.env.PATH ?? '/usr/bin:/bin';
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: options.cwd,
    env:
      options.defaults === false
        ? { PATH: path, ...env }
        : {
            PATH: path,
            ELIGO_HTTP_PORT: String(httpPort),
            ELIGO_GRPC_PORT: String(grpcPort),
            ELIGO_BIND_HOST: '127.0.0.1',
            ELIGO_LOG_LEVEL: 'info',
            ELIGO_SHUTDOWN_GRACE_MS: '5000',
            // No drain window after SIGTERM (5 s by default): no load balancer to wait for here.
            ELIGO_SHUTDOWN_DELAY_MS: '0',
            // Suites create many tokenless verifications from one address; the limits have tests of their own.
            ELIGO_GATEWAY_PUBLIC_CREATE_PER_MINUTE: '0',
            ELIGO_GATEWAY_SEND_LINK_PER_HOUR: '0',
            ...env,
          },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: EligoProcess = {
    child,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    grpcPort,
    output: () => out,
    exited,
    // 45 s: a SIGTERM right after a hard restart waits for the consumers' group joins in flight, which the
    // broker holds until the killed member's session (30 s) expires.
    stop: async (signal = 'SIGTERM', timeoutMs = 45_000) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // A process that does not stop in time fails the test with its output, not with a bare jest timeout.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`eligo did not exit ${timeoutMs} ms after ${signal}:\n${out}`));
        }, timeoutMs);
      });
      try {
        return await Promise.race([exited, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
  return proc;
}

/** A process's error and fatal log lines and its `eligo: ...` messages (the last `count`): why it stopped. */
export function errorLines(output: string, count = 5): string {
  return output
    .split('\n')
    .filter((l) => /"level":"(error|fatal)"|"level":(50|60)\b|^eligo: /.test(l))
    .slice(-count)
    .join('\n');
}

/** Waits until /readyz answers 200, or fails with the process output when it exits or times out. */
export async function waitReady(proc: EligoProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedCode: number | null | undefined;
  void proc.exited.then((c) => (exitedCode = c));
  while (Date.now() < deadline) {
    if (exitedCode !== undefined)
      throw new Error(
        `eligo exited (${exitedCode}) before ready: ${errorLines(proc.output())}\n--- output ---\n${proc.output()}`,
      );
    try {
      const res = await fetch(`${proc.httpUrl}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `eligo not ready after ${timeoutMs} ms: ${errorLines(proc.output())}\n--- output ---\n${proc.output()}`,
  );
}

/** A fresh database on the test server, so each suite's services migrate their schemas from scratch. */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.ELIGO_TEST_DATABASE_URL;
  if (!admin) throw new Error('ELIGO_TEST_DATABASE_URL is not set (the jest global setup provides it)');
  const name = `e2e_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** One key per test file: every process of a suite must read what the others encrypted. */
const suiteEncryptionKey = randomBytes(32).toString('base64');

/** The env that points a process at the suite's real Kafka and MinIO. */
export function realServersEnv(databaseUrl: string): Record<string, string> {
  const need = (k: string): string => {
    const v = process.env[k];
    if (!v) throw new Error(`${k} is not set (the jest global setup provides it)`);
    return v;
  };
  return {
    ELIGO_DATABASE_URL: databaseUrl,
    ELIGO_ENCRYPTION_KEY: suiteEncryptionKey,
    ELIGO_KAFKA_BROKERS: need('ELIGO_TEST_KAFKA_BROKERS'),
    ELIGO_KAFKA_CLIENT_ID: `e2e-${randomBytes(3).toString('hex')}`,
    ELIGO_KAFKA_GROUP_PREFIX: `e2e-${randomBytes(4).toString('hex')}.`,
    // A new reports projection would otherwise replay every earlier suite's events from the shared broker.
    ELIGO_REPORTS_PROJECTION_START: 'latest',
    ELIGO_S3_ENDPOINT: need('ELIGO_TEST_S3_ENDPOINT'),
    ELIGO_S3_ACCESS_KEY: need('ELIGO_TEST_S3_ACCESS_KEY'),
    ELIGO_S3_SECRET_KEY: need('ELIGO_TEST_S3_SECRET_KEY'),
    ELIGO_S3_BUCKET: `e2e-${randomBytes(4).toString('hex')}`,
  };
}

export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'eligo-e2e-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `eligo start --target all` of one suite: its own database and data dir, the real servers, the operator token. */
export interface EligoSuite {
  eligo: EligoProcess;
  adminToken: string;
  /** The suite's database (for assertions on stored rows). */
  databaseUrl: string;
  /** Kills the process and removes what the suite made (afterAll). */
  stop(): Promise<void>;
}

export async function startEligoSuite(
  adminToken: string,
  env: Record<string, string> = {},
  readyTimeoutMs = 60_000,
): Promise<EligoSuite> {
  const db = await freshDatabase();
  const data = tempDataDir();
  const eligo = await startEligo(['start', '--target', 'all'], {
    ...realServersEnv(db.url),
    ELIGO_ADMIN_TOKEN: adminToken,
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ...env,
  });
  const stop = async () => {
    await eligo.stop('SIGKILL');
    await db.drop();
    data.remove();
  };
  try {
    await waitReady(eligo, readyTimeoutMs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { eligo, adminToken, databaseUrl: db.url, stop };
}
