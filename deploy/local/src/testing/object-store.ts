import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFsObjectStore, createS3ObjectStore, type ObjectStore } from '@eligo/runtime';
import type { ServiceUnderTest } from './service-under-test';

/**
 * The bucket the process writes to, opened beside it and read as stored (no decryption): MinIO, or the
 * filesystem store when the suite runs without S3 (ELIGO_S3_ENDPOINT empty).
 */
export function rawStore(sut: ServiceUnderTest): ObjectStore {
  if (sut.config.s3) return createS3ObjectStore(sut.config.s3);
  // Only listed and read here: no URL is ever signed with this secret.
  return createFsObjectStore({
    root: join(sut.config.dataDir, 'objects'),
    publicBaseUrl: sut.httpUrl,
    signingSecret: 'x'.repeat(32),
  });
}

/**
 * Every byte the process's store holds, read without the service: each S3 object through the plain S3 API,
 * or every file under the filesystem store's directory (records, blobs and writes in progress alike).
 */
export async function rawBytes(h: { sut: ServiceUnderTest }): Promise<{ name: string; bytes: Buffer }[]> {
  const { config } = h.sut;
  if (config.s3) {
    const store = createS3ObjectStore(config.s3);
    const found: { name: string; bytes: Buffer }[] = [];
    for await (const { key } of store.list(''))
      found.push({ name: key, bytes: await readStream(await store.get(key)) });
    return found;
  }
  const root = join(config.dataDir, 'objects');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => ({ name: e.name, bytes: await readFile(join(e.parentPath, e.name)) })),
  );
}

/** A stream read whole. */
export async function readStream(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
