import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ENV } from './config';
import { timed } from './log';
import { minioBinary } from './minio-build';
import { freePort } from './ports';
import { spawnDetached, stopProcess, type Spawned } from './process';
import type { ServiceRecord, StartContext } from './types';
import { waitUntilReady } from './wait';

export const MINIO_ACCESS_KEY = 'eligo-test';

export async function startLocalMinio(ctx: StartContext): Promise<ServiceRecord> {
  const binary = await minioBinary(ctx);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligo-minio-'));
  let spawned: Spawned | undefined;
  try {
    const apiPort = await freePort();
    const consolePort = await freePort();
    const secret = randomBytes(16).toString('hex');
    const endpoint = `http://127.0.0.1:${apiPort}`;
    const logFile = path.join(dir, 'minio.log');
    await timed(ctx.log, `start MinIO on 127.0.0.1:${apiPort} (console :${consolePort})`, async () => {
      spawned = spawnDetached({
        command: binary,
        // prettier-ignore
        args: [
          'server',
          path.join(dir, 'data'),
          '--address', `127.0.0.1:${apiPort}`,
          '--console-address', `127.0.0.1:${consolePort}`,
          // Keeps MinIO out of ~/.minio, so nothing outlives the run dir.
          '--certs-dir', path.join(dir, 'certs'),
          '--quiet',
        ],
        cwd: dir,
        env: {
          ...ctx.env,
          MINIO_ROOT_USER: MINIO_ACCESS_KEY,
          MINIO_ROOT_PASSWORD: secret,
          MINIO_UPDATE: 'off', // no update checks: the machine may have no internet
        },
        logFile,
        dir,
      });
      const proc = spawned;
      await waitUntilReady('MinIO', () => minioAnswers(endpoint), {
        timeoutMs: 60_000,
        process: proc,
        logFiles: [logFile],
      });
    });
    return {
      service: 'minio',
      via: 'process',
      env: { [ENV.s3Endpoint]: endpoint, [ENV.s3AccessKey]: MINIO_ACCESS_KEY, [ENV.s3SecretKey]: secret },
      ports: { api: apiPort, console: consolePort },
      pid: spawned?.pid,
      pidStart: spawned?.pidStart,
      stopSignal: 'SIGTERM',
      dir,
      log: logFile,
      startedAt: new Date().toISOString(),
    };
  } catch (err) {
    if (spawned) await stopProcess(spawned);
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** MinIO's liveness endpoint: 200 once the server serves requests. */
export async function minioAnswers(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(new URL('/minio/health/live', endpoint), { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer().catch(() => undefined);
    return res.status === 200;
  } catch {
    return false;
  }
}
