import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from 'minio';
import { S3ObjectStore, type S3ObjectStoreConfig } from '../../src/objectstore/s3-store';
import { objectStoreContract, type ContractTarget } from './object-store-contract';
import {
  adminClient,
  MIB,
  randomStream,
  randomSuffix,
  readAll,
  removeBucket,
  serverFromEnv,
  sha256,
} from './support';

async function incompleteUploads(client: Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const upload of client.listIncompleteUploads(bucket, '', true)) keys.push(upload.key);
  return keys;
}

describe('S3ObjectStore', () => {
  const server = serverFromEnv();
  const bucket = `eligo-test-${randomSuffix()}`;
  const admin = adminClient(server);
  let offset = 0;
  const config: S3ObjectStoreConfig = {
    ...server,
    bucket,
    // The smallest part S3 allows, so the contract's 12 MiB stream goes up in three parts.
    partSizeBytes: 5 * MIB,
    clock: () => new Date(Date.now() + offset),
  };
  const store = new S3ObjectStore(config);
  const target: ContractTarget = {
    store,
    setClockOffset: (ms) => {
      offset = ms;
    },
    signatureParam: 'X-Amz-Signature',
    streamSize: 12 * MIB,
    finishesEachChunk: true,
  };

  beforeAll(async () => {
    await store.ensureBucket();
  });
  afterAll(async () => {
    await removeBucket(admin, bucket);
  });

  describe('contract', () => {
    objectStoreContract(() => target);
  });

  it('creates a missing bucket once and accepts being asked again', async () => {
    const other = `eligo-test-${randomSuffix()}`;
    try {
      const otherStore = new S3ObjectStore({ ...config, bucket: other });
      await otherStore.ensureBucket();
      await otherStore.ensureBucket();
      expect(await admin.bucketExists(other)).toBe(true);
    } finally {
      await removeBucket(admin, other);
    }
  });

  it('aborts the multipart upload of a failed put, leaving no parts on the server', async () => {
    await expect(
      store.put('aborted/big.bin', randomStream(11 * MIB).stream, { size: 10 * MIB }),
    ).rejects.toThrow(/declared size/);
    expect(await incompleteUploads(admin, bucket)).toEqual([]);
    expect(await store.exists('aborted/big.bin')).toBe(false);
  });

  it('uploads a large stream in parts of the configured size, keeping its content type', async () => {
    const { etag } = await store.put('multipart/video.mp4', randomStream(11 * MIB).stream, {
      contentType: 'video/mp4',
    });
    // S3 marks a multipart object's etag with its part count: 11 MiB in 5 MiB parts is three.
    expect(etag).toMatch(/-3$/);
    expect(await store.stat('multipart/video.mp4')).toMatchObject({
      size: 11 * MIB,
      contentType: 'video/mp4',
    });
  });

  it('uploads in the part size a put asks for, and refuses one S3 would refuse', async () => {
    const eightMiBParts = new S3ObjectStore({ ...config, partSizeBytes: 8 * MIB });
    const chunks = [Buffer.alloc(5 * MIB, 1), Buffer.alloc(5 * MIB, 2), Buffer.alloc(MIB, 3)];
    async function* given() {
      yield* chunks;
    }
    const { etag } = await eightMiBParts.put('part-size/report.csv', given(), { partBytes: 5 * MIB });
    // 11 MiB: two parts in the store's 8 MiB, three in the 5 MiB asked for.
    expect(etag).toMatch(/-3$/);
    expect((await readAll(await store.get('part-size/report.csv'))).equals(Buffer.concat(chunks))).toBe(true);
    await expect(eightMiBParts.put('part-size/small.csv', given(), { partBytes: MIB })).rejects.toThrow(
      /5 MiB/,
    );
  });

  it('reuses its part buffers from one put to the next, and never one still being sent', async () => {
    const reusing = new S3ObjectStore(config);
    const bodies = Array.from({ length: 3 }, () => randomStream(7 * MIB));
    // Three at once: each is sent from a buffer of its own (its 2 MiB final part from the same one, a view).
    await Promise.all(bodies.map((body, i) => reusing.put(`reuse/at-once-${i}.bin`, body.stream)));
    expect(reusing.partBuffers.allocated).toBe(3);
    // Then one after the other: the same buffers again, none allocated.
    const later = Array.from({ length: 3 }, () => randomStream(6 * MIB));
    for (const [i, body] of later.entries()) await reusing.put(`reuse/after-${i}.bin`, body.stream);
    expect(reusing.partBuffers.allocated).toBe(3);
    for (const [i, body] of bodies.entries())
      expect(sha256(await readAll(await reusing.get(`reuse/at-once-${i}.bin`)))).toBe(body.digest());
    for (const [i, body] of later.entries())
      expect(sha256(await readAll(await reusing.get(`reuse/after-${i}.bin`)))).toBe(body.digest());
  });

  it('keeps the buffer of a part the server refused (a socket may still hold it)', async () => {
    const missing = new S3ObjectStore({ ...config, bucket: `eligo-missing-${randomSuffix()}` });
    await expect(missing.put('refused/a.bin', randomStream(MIB).stream)).rejects.toThrow();
    expect(missing.partBuffers.allocated).toBe(1);
    expect(missing.partBuffers.idleCount).toBe(0);
  });

  it('sends bodies without hashing them (unsigned payload, no Content-MD5)', async () => {
    // A recording stand-in for the server: what the store sends, as the server receives it.
    const seen: { url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const recorder = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { etag: '"abc123"' }).end();
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = recorder.address() as AddressInfo;
      const recorded = new S3ObjectStore({ ...config, endpoint: `http://127.0.0.1:${port}` });
      const body = Buffer.from('identity document bytes');
      expect(await recorded.put('unhashed/doc.bin', body, { contentType: 'image/png' })).toEqual({
        etag: 'abc123',
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.body.equals(body)).toBe(true);
      expect(seen[0]!.headers['content-type']).toBe('image/png');
      // minio's own PUT sends the body's SHA-256 over plain HTTP, and its MD5.
      expect(seen[0]!.headers['x-amz-content-sha256']).toBeUndefined();
      expect(seen[0]!.headers['content-md5']).toBeUndefined();
      expect(seen[0]!.url).toMatch(/^\/eligo-test-[^/]+\/unhashed\/doc\.bin\?.*X-Amz-Signature=/);
    } finally {
      recorder.close();
    }
  });

  it('reports the server’s error code when it refuses a body', async () => {
    const missing = new S3ObjectStore({ ...config, bucket: `eligo-missing-${randomSuffix()}` });
    await expect(missing.put('x/y.bin', Buffer.from('x'))).rejects.toMatchObject({ code: 'NoSuchBucket' });
  });

  it('signs URLs for the presign endpoint, not the one it talks to', async () => {
    // Talks to an address where nothing listens; only presigning, which needs no request, can work.
    const presigner = new S3ObjectStore({
      ...config,
      endpoint: 'http://127.0.0.1:9',
      presignEndpoint: server.endpoint,
    });
    const url = await presigner.presignPut('presign-endpoint/file.txt', { expiresInSeconds: 60 });
    expect(url.startsWith(`${server.endpoint}/${bucket}/presign-endpoint/file.txt?`)).toBe(true);
    const res = await fetch(url, { method: 'PUT', body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect((await readAll(await store.get('presign-endpoint/file.txt'))).toString()).toBe('hello');
  });

  it('refuses an endpoint with a path or an unknown scheme at construction', () => {
    expect(() => new S3ObjectStore({ ...config, endpoint: 'http://127.0.0.1:59000/bucket' })).toThrow(
      /host\[:port\]/,
    );
    expect(() => new S3ObjectStore({ ...config, endpoint: 's3://bucket' })).toThrow(/http/);
    expect(() => new S3ObjectStore({ ...config, partSizeBytes: MIB })).toThrow(/5 MiB/);
  });
});
