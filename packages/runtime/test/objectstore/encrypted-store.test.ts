import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { SEALED_HEADER_BYTES, sealedSize } from '../../src/crypto/object-cipher';
import { EncryptedObjectStore } from '../../src/objectstore/encrypted-store';
import { createSignedObjectRouter } from '../../src/objectstore/fs-object-router';
import { FsObjectStore } from '../../src/objectstore/fs-store';
import type { ObjectStore } from '../../src/objectstore/object-store';
import { S3ObjectStore } from '../../src/objectstore/s3-store';
import { objectStoreContract, type ContractTarget } from './object-store-contract';
import { adminClient, MIB, randomSuffix, readAll, removeBucket, serverFromEnv } from './support';

const MARKER = 'ZZPLAINTEXTMARKER Jane Doe';
const masterKey = randomBytes(32);

interface Fixture {
  target: ContractTarget;
  store: EncryptedObjectStore;
  /** The store the sealed bytes rest in. */
  inner: ObjectStore;
  /** Every byte the inner store holds, read without decrypting. */
  rawBytes(): Promise<Buffer[]>;
  close(): Promise<void>;
}

/** An encrypted store over `inner`, its router served by an Express app on 127.0.0.1:0 under /sealed. */
async function encryptedOver(
  inner: ObjectStore,
): Promise<Omit<Fixture, 'rawBytes' | 'close'> & { server: Server }> {
  const app = express();
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  let offset = 0;
  const store = new EncryptedObjectStore({
    inner,
    masterKey,
    purpose: 'test',
    publicBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sealed`,
    clock: () => new Date(Date.now() + offset),
  });
  await store.ensureBucket();
  app.use('/sealed', createSignedObjectRouter(store, { maxUploadBytes: 16 * MIB }));
  const target: ContractTarget = {
    store,
    setClockOffset: (ms) => {
      offset = ms;
    },
    signatureParam: 'X-Eligo-Signature',
    streamSize: 12 * MIB,
    finishesEachChunk: false,
  };
  return { target, store, inner, server };
}

const closeServer = async (server: Server) => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
};

async function onFilesystem(): Promise<Fixture> {
  const root = await mkdtemp(join(tmpdir(), 'eligo-sealed-'));
  const inner = new FsObjectStore({
    root,
    publicBaseUrl: 'http://127.0.0.1:9/unused',
    signingSecret: 'test-signing-secret-of-at-least-32-characters',
  });
  const fx = await encryptedOver(inner);
  return {
    ...fx,
    rawBytes: async () => {
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name))));
    },
    close: async () => {
      await closeServer(fx.server);
      await rm(root, { recursive: true, force: true });
    },
  };
}

async function onS3(): Promise<Fixture> {
  const server = serverFromEnv();
  const bucket = `eligo-sealed-${randomSuffix()}`;
  const inner = new S3ObjectStore({ ...server, bucket, partSizeBytes: 5 * MIB });
  const fx = await encryptedOver(inner);
  return {
    ...fx,
    rawBytes: async () => {
      const all: Buffer[] = [];
      for await (const { key } of inner.list('')) all.push(await readAll(await inner.get(key)));
      return all;
    },
    close: async () => {
      await closeServer(fx.server);
      await removeBucket(adminClient(server), bucket);
    },
  };
}

describe.each([
  ['the filesystem store', onFilesystem],
  ['S3', onS3],
])('EncryptedObjectStore over %s', (_name, start) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await start();
  });
  afterAll(async () => {
    await fx?.close();
  });

  describe('contract', () => {
    objectStoreContract(() => fx.target);
  });

  describe('at rest', () => {
    it('keeps no byte of the content in the clear, whichever way it was written', async () => {
      const content = Buffer.from(`${MARKER},`.repeat(10_000));
      await fx.store.put('at-rest/put', content, { contentType: 'text/csv' });
      const url = await fx.store.presignPut('at-rest/presigned', { expiresInSeconds: 60 });
      expect((await fetch(url, { method: 'PUT', body: content })).status).toBe(200);

      for (const bytes of await fx.rawBytes()) expect(bytes.includes('ZZPLAINTEXTMARKER')).toBe(false);
      expect(await fx.inner.stat('at-rest/put')).toMatchObject({ size: sealedSize(content.length) });
      expect(await fx.store.stat('at-rest/put')).toMatchObject({
        size: content.length,
        contentType: 'text/csv',
      });
      expect((await readAll(await fx.store.get('at-rest/presigned'))).equals(content)).toBe(true);
    });

    it('serves the content with its own length from a presigned GET', async () => {
      const content = randomBytes(200_000);
      await fx.store.put('at-rest/served', content, { contentType: 'image/png' });
      const res = await fetch(await fx.store.presignGet('at-rest/served', { expiresInSeconds: 60 }));
      expect(res.headers.get('content-length')).toBe(String(content.length));
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
    });

    it('still reads an object stored in the clear before encryption', async () => {
      const csv = 'verificationId,firstName\n1,Jane\n';
      await fx.inner.put('at-rest/legacy', Buffer.from(csv), { contentType: 'text/csv' });
      expect((await readAll(await fx.store.get('at-rest/legacy'))).toString()).toBe(csv);
      expect(await fx.store.stat('at-rest/legacy')).toMatchObject({ size: csv.length });
      const res = await fetch(await fx.store.presignGet('at-rest/legacy', { expiresInSeconds: 60 }));
      expect(await res.text()).toBe(csv);
    });

    it('refuses a tampered object: at once for its header, mid-stream for its content', async () => {
      // Sealed, then one byte flipped where it rests.
      const tamper = async (key: string, at: number) => {
        await fx.store.put(key, randomBytes(3 * 64 * 1024));
        const sealed = await readAll(await fx.inner.get(key));
        sealed[at] = sealed[at]! ^ 1;
        await fx.inner.put(key, sealed);
      };
      await tamper('at-rest/bad-header', 30);
      await tamper('at-rest/bad-content', SEALED_HEADER_BYTES + 2 * 64 * 1024);

      await expect(fx.store.get('at-rest/bad-header')).rejects.toThrow(/header failed/);
      const header = await fetch(await fx.store.presignGet('at-rest/bad-header', { expiresInSeconds: 60 }));
      expect(header.status).toBe(500);
      await expect(readAll(await fx.store.get('at-rest/bad-content'))).rejects.toThrow(/authentication/);
      // The headers are out by then: the download breaks off rather than end as if complete.
      const content = await fetch(await fx.store.presignGet('at-rest/bad-content', { expiresInSeconds: 60 }));
      await expect(content.arrayBuffer()).rejects.toThrow();
    });

    it('does not open an object moved to another key', async () => {
      await fx.store.put('at-rest/original', Buffer.from(MARKER));
      await fx.inner.put('at-rest/moved', await readAll(await fx.inner.get('at-rest/original')));
      await expect(fx.store.get('at-rest/moved')).rejects.toThrow(/header failed/);
    });

    it('signs no URL without a public base URL', async () => {
      const bare = new EncryptedObjectStore({ inner: fx.inner, masterKey, purpose: 'test' });
      await expect(bare.presignGet('at-rest/put', { expiresInSeconds: 60 })).rejects.toThrow(
        /public base URL/,
      );
    });
  });
});
