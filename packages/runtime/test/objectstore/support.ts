import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { isDomainError, type DomainErrorKind } from '../../src/errors/domain-error';
import { parseS3Endpoint } from '../../src/objectstore/s3-endpoint';
import type { S3ObjectStoreConfig } from '../../src/objectstore/s3-store';

export const MIB = 1024 * 1024;

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * A stream of `size` random bytes produced on demand (never held whole), with the SHA-256 of everything it
 * produced available once it has ended.
 */
export function randomStream(
  size: number,
  chunkSize = 64 * 1024,
): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let left = size;
  const stream = new Readable({
    read() {
      if (left === 0) return void this.push(null);
      const chunk = randomBytes(Math.min(chunkSize, left));
      left -= chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.copy().digest('hex') };
}

/** A stream that sends `good` bytes and then fails, like a client that disconnects mid-upload. */
export function failingStream(good: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(good));
      } else {
        this.destroy(new Error('source failed'));
      }
    },
  });
}

export async function expectDomainError(promise: Promise<unknown>, kind: DomainErrorKind): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isDomainError(err)) throw new Error(`expected a ${kind} DomainError, got ${String(err)}`);
  expect(err.kind).toBe(kind);
}

/** Changes one hex digit of a URL's query parameter, keeping its length and alphabet. */
export function tamperParam(url: string, param: string): string {
  const parsed = new URL(url);
  const value = parsed.searchParams.get(param);
  if (!value) throw new Error(`URL has no ${param}`);
  const last = value.at(-1) === '0' ? '1' : '0';
  parsed.searchParams.set(param, value.slice(0, -1) + last);
  return parsed.toString();
}

export function randomSuffix(): string {
  return randomBytes(6).toString('hex');
}

/** The S3 server from the shared global setup (or /tmp/devinfra/env.sh when run by hand). */
export function serverFromEnv(): Pick<S3ObjectStoreConfig, 'endpoint' | 'accessKey' | 'secretKey'> {
  const endpoint = process.env.ELIGO_TEST_S3_ENDPOINT;
  const accessKey = process.env.ELIGO_TEST_S3_ACCESS_KEY;
  const secretKey = process.env.ELIGO_TEST_S3_SECRET_KEY;
  if (!endpoint || !accessKey || !secretKey) {
    throw new Error(
      'ELIGO_TEST_S3_ENDPOINT, ELIGO_TEST_S3_ACCESS_KEY and ELIGO_TEST_S3_SECRET_KEY must name an S3 server ' +
        '(the jest global setup provides them; by hand: source /tmp/devinfra/env.sh)',
    );
  }
  return { endpoint, accessKey, secretKey };
}

/** A plain client for checks and cleanup that the ObjectStore interface deliberately does not offer. */
export function adminClient(server: ReturnType<typeof serverFromEnv>): Client {
  return new Client({
    ...parseS3Endpoint(server.endpoint),
    accessKey: server.accessKey,
    secretKey: server.secretKey,
  });
}

export async function removeBucket(client: Client, bucket: string): Promise<void> {
  if (!(await client.bucketExists(bucket))) return;
  // MinIO's bulk delete can skip "a/b" when "a" goes in the same batch, so repeat until the listing is empty.
  for (let round = 0; round < 5; round++) {
    const names: string[] = [];
    for await (const item of client.listObjectsV2(bucket, '', true)) if (item.name) names.push(item.name);
    if (names.length === 0) break;
    await client.removeObjects(bucket, names);
  }
  await client.removeBucket(bucket);
}
