import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { get, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import express from 'express';
import { createFsObjectRouter } from '../../src/objectstore/fs-object-router';
import { FsObjectStore } from '../../src/objectstore/fs-store';
import { objectStoreContract, type ContractTarget } from './object-store-contract';
import { failingStream, MIB, randomStream, readAll, sha256 } from './support';

const secret = 'test-signing-secret-of-at-least-32-characters';
const maxUploadBytes = 16 * MIB;

/** A store on a temp dir, served by an Express app on 127.0.0.1:0 under /storage as the HTTP server would. */
async function startFsTarget(): Promise<{
  target: ContractTarget;
  store: FsObjectStore;
  root: string;
  base: string;
  close(): Promise<void>;
}> {
  const root = await mkdtemp(join(tmpdir(), 'eligo-fs-store-'));
  const app = express();
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/storage`;
  let offset = 0;
  const store = new FsObjectStore({
    root,
    publicBaseUrl: base,
    signingSecret: secret,
    clock: () => new Date(Date.now() + offset),
  });
  await store.ensureBucket();
  app.use('/storage', createFsObjectRouter(store, { maxUploadBytes }));
  return {
    store,
    root,
    base,
    target: {
      store,
      setClockOffset: (ms) => {
        offset = ms;
      },
      signatureParam: 'X-Eligo-Signature',
      streamSize: 12 * MIB,
      finishesEachChunk: true,
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A GET whose path is sent exactly as given. */
async function rawGet(url: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  const path = url.slice(url.indexOf('/', 'http://'.length));
  const res = await new Promise<IncomingMessage>((resolve, reject) =>
    get({ hostname, port, path }, resolve).on('error', reject),
  );
  return { status: res.statusCode ?? 0, body: (await readAll(res)).toString() };
}

/** Every file under dir, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

describe('FsObjectStore', () => {
  let fx: Awaited<ReturnType<typeof startFsTarget>>;
  beforeAll(async () => {
    fx = await startFsTarget();
  });
  afterAll(async () => {
    await fx?.close();
  });

  describe('contract', () => {
    objectStoreContract(() => fx.target);
  });

  describe('on disk', () => {
    it('never uses the key as a path and leaves no temp files behind', async () => {
      await fx.store.put('secret-name/evidence.pdf', Buffer.from('%PDF'));
      await expect(fx.store.put('secret-name/broken', failingStream(1000))).rejects.toThrow('source failed');
      await expect(fx.store.put('secret-name/sized', Buffer.from('abc'), { size: 5 })).rejects.toThrow(
        /declared size/,
      );
      const files = await filesUnder(fx.root);
      expect(files.some((f) => f.includes('secret-name') || f.includes('evidence'))).toBe(false);
      expect(
        files.every((f) => /^objects\/[0-9a-f]{2}\/[0-9a-f]{64}\.(json|[0-9a-f-]{36}\.blob)$/.test(f)),
      ).toBe(true);
      expect(await readdir(join(fx.root, 'tmp'))).toEqual([]);
    });

    it('keeps one blob per object across overwrites and none after delete', async () => {
      const blobsNow = async () => (await filesUnder(fx.root)).filter((f) => f.endsWith('.blob')).length;
      const before = await blobsNow();
      await Promise.all([1, 2, 3, 4, 5].map((n) => fx.store.put('overwritten', Buffer.from(`v${n}`))));
      expect(await blobsNow()).toBe(before + 1);
      expect((await readAll(await fx.store.get('overwritten'))).toString()).toMatch(/^v[1-5]$/);
      await fx.store.delete('overwritten');
      expect(await blobsNow()).toBe(before);
    });

    it('lets a reader that already opened an object finish after it is overwritten and deleted', async () => {
      const first = randomBytes(3 * MIB);
      await fx.store.put('in-use', first);
      const reading = await fx.store.get('in-use');
      await fx.store.put('in-use', Buffer.from('second'));
      await fx.store.delete('in-use');
      expect(sha256(await readAll(reading))).toBe(sha256(first));
    });

    it('creates its root on ensureBucket and refuses a short signing secret', async () => {
      const root = join(fx.root, 'nested', 'root');
      await new FsObjectStore({ root, publicBaseUrl: fx.base, signingSecret: secret }).ensureBucket();
      expect(await readdir(root)).toEqual(['tmp']);
      expect(() => new FsObjectStore({ root, publicBaseUrl: fx.base, signingSecret: 'short' })).toThrow(
        /32 characters/,
      );
    });
  });

  describe('router', () => {
    it('refuses with 413 an upload whose Content-Length exceeds the limit, storing nothing', async () => {
      const url = await fx.store.presignPut('too-big', { expiresInSeconds: 60 });
      const res = await fetch(url, { method: 'PUT', body: Buffer.alloc(maxUploadBytes + 1) });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        systemErrorMessage: `Upload exceeds the limit of ${maxUploadBytes} bytes`,
      });
      expect(await fx.store.exists('too-big')).toBe(false);
    });

    it('streams a chunked upload of unknown length to disk', async () => {
      const url = await fx.store.presignPut('chunked', { expiresInSeconds: 60 });
      const source = randomStream(3 * MIB);
      const res = await fetch(url, {
        method: 'PUT',
        body: Readable.toWeb(source.stream) as ReadableStream,
        duplex: 'half',
        headers: { 'content-type': 'video/mp4' },
      } as RequestInit);
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
      expect(sha256(await readAll(await fx.store.get('chunked')))).toBe(source.digest());
      expect(await fx.store.stat('chunked')).toMatchObject({ size: 3 * MIB, contentType: 'video/mp4' });
    });

    it('refuses with 413 a chunked upload that grows past the limit, storing nothing', async () => {
      const url = await fx.store.presignPut('chunked-too-big', { expiresInSeconds: 60 });
      const res = await fetch(url, {
        method: 'PUT',
        body: Readable.toWeb(randomStream(maxUploadBytes + 64 * 1024).stream) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await fx.store.exists('chunked-too-big')).toBe(false);
      expect(await readdir(join(fx.root, 'tmp'))).toEqual([]);
    });

    it('leaves nothing behind when the client disconnects mid-upload', async () => {
      const url = new URL(await fx.store.presignPut('abandoned', { expiresInSeconds: 60 }));
      const req = request({
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'PUT',
        headers: { 'content-length': String(MIB) },
      });
      req.on('error', () => undefined);
      req.write(Buffer.alloc(100 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 100));
      req.destroy();
      // The server notices the reset asynchronously; give it a moment, then nothing may remain.
      for (let i = 0; i < 40 && (await readdir(join(fx.root, 'tmp'))).length > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await readdir(join(fx.root, 'tmp'))).toEqual([]);
      expect(await fx.store.exists('abandoned')).toBe(false);
      expect((await fetch(await fx.store.presignGet('abandoned', { expiresInSeconds: 60 }))).status).toBe(
        404,
      );
    });

    it('refuses keys that try to leave the store, before looking at the signature', async () => {
      const signed = new URL(await fx.store.presignGet('a/b', { expiresInSeconds: 60 }));
      // Sent as written: fetch would resolve the dot segments before they reached the server.
      for (const path of [
        '/storage/objects/..%2F..%2Fetc%2Fpasswd',
        '/storage/objects/a/../b',
        '/storage/objects/a/%2e%2e/b',
        '/storage/objects/a//b',
      ]) {
        const res = await rawGet(`${signed.origin}${path}${signed.search}`);
        expect({ path, ...res }).toEqual({
          path,
          status: 400,
          body: '{"systemErrorMessage":"Invalid object key"}',
        });
      }
    });

    it('serves downloads with headers that stop browsers from running uploaded content', async () => {
      await fx.store.put('page.html', Buffer.from('<script>alert(1)</script>'), { contentType: 'text/html' });
      const res = await fetch(await fx.store.presignGet('page.html', { expiresInSeconds: 60 }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain('sandbox');
      expect(res.headers.get('cache-control')).toBe('private');
      expect(res.headers.get('content-length')).toBe('25');
    });

    it('answers 400 to an upload with an unusable content type, without reading the body', async () => {
      const url = await fx.store.presignPut('typed', { expiresInSeconds: 60 });
      const body = Buffer.alloc(4 * MIB);
      const res = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'not a type' } });
      expect(res.status).toBe(400);
      expect(await fx.store.exists('typed')).toBe(false);
      // The abandoned body must not take the server down with it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const after = await fetch(url, {
        method: 'PUT',
        body: 'ok',
        headers: { 'content-type': 'text/plain' },
      });
      expect(after.status).toBe(200);
    });
  });
});
