import path from 'node:path';
import { goInstalled } from './go-install';
import type { StartContext } from './types';

/**
 * The MinIO server version, as a Go module version. MinIO's community server is source-only (no binaries or
 * images are published any more), so it is built from this pinned commit with `go install`.
 */
export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';
const MINIO_MODULE = 'github.com/minio/minio';

/** <cache>/minio/<version>/minio, built on first use (go-install.ts). */
export function minioBinary(ctx: StartContext): Promise<string> {
  return goInstalled(
    { name: 'MinIO', target: `${MINIO_MODULE}@${MINIO_VERSION}`, binary: 'minio', takes: 'about 3 minutes' },
    path.join(ctx.cacheDir, 'minio', MINIO_VERSION),
    ctx,
  );
}
