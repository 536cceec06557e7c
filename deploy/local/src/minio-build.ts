import fs from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from './errors';
import { formatMs, timed } from './log';
import { requireExecutable, runCommand } from './command';
import type { StartContext } from './types';

/**
 * The MinIO server version, as a Go module version. MinIO's community server is source-only (no binaries or
 * images are published any more), so it is built from this pinned commit with `go install`.
 */
export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';
const MINIO_MODULE = 'github.com/minio/minio';

/**
 * <cache>/minio/<version>/minio, built on first use. go install writes into a private GOBIN that is then moved
 * into place, so an interrupted build leaves nothing that looks finished and two builds at once do not collide.
 */
export async function minioBinary(ctx: StartContext): Promise<string> {
  const dir = path.join(ctx.cacheDir, 'minio', MINIO_VERSION);
  const binary = path.join(dir, 'minio');
  if (await isExecutable(binary)) return binary;

  const go = requireExecutable(
    'go',
    'install Go (https://go.dev/doc/install) to build MinIO from source',
    ctx.env,
  );
  await fs.mkdir(dir, { recursive: true });
  const gobin = await fs.mkdtemp(path.join(dir, 'gobin.tmp-'));
  const started = Date.now();
  // The first build compiles a large module: say that it is expected to take a while, and that it is alive.
  const heartbeat = setInterval(
    () => ctx.log(`still building MinIO (${formatMs(Date.now() - started)})`),
    30_000,
  );
  try {
    await timed(ctx.log, `build MinIO ${MINIO_VERSION} with go install (once; takes about 3 minutes)`, () =>
      runCommand(go, ['install', `${MINIO_MODULE}@${MINIO_VERSION}`], {
        env: { ...ctx.env, GOBIN: gobin },
        timeoutMs: 30 * 60_000,
        logFile: path.join(dir, 'build.log'),
      }).catch((err: Error) => {
        throw new InfraError(`could not build MinIO with go install: ${err.message}`);
      }),
    );
    await fs.rename(path.join(gobin, 'minio'), binary);
    return binary;
  } finally {
    clearInterval(heartbeat);
    await fs.rm(gobin, { recursive: true, force: true });
  }
}

async function isExecutable(file: string): Promise<boolean> {
  return fs.access(file, fs.constants.X_OK).then(
    () => true,
    () => false,
  );
}
