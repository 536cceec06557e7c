import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStore } from '../../src/objectstore/object-store';
import {
  expectDomainError,
  failingStream,
  MIB,
  randomStream,
  randomSuffix,
  readAll,
  sha256,
  tamperParam,
} from './support';

/** What each adapter's suite provides to the shared contract. */
export interface ContractTarget {
  store: ObjectStore;
  /** Shifts the clock the store signs URLs with; the server that checks them keeps real time. */
  setClockOffset(ms: number): void;
  /** Query parameter that carries a presigned URL's signature. */
  signatureParam: string;
  /** Large enough to need several upload parts on S3 (the suites use 5 MiB parts). */
  streamSize: number;
  /**
   * Finishes with each chunk of an async iterable before pulling the next (ObjectStore.put): true for the S3
   * and filesystem stores, not the encrypted one, which gathers blocks across chunks.
   */
  finishesEachChunk: boolean;
}

/**
 * The behaviour every ObjectStore promises, run against each adapter with real servers: the suites call this
 * inside their describe, once `target()` is ready (in beforeAll).
 */
export function objectStoreContract(target: () => ContractTarget): void {
  // Every test works under its own prefix, so tests cannot see each other's objects.
  let prefix = '';
  beforeEach(() => {
    prefix = `contract-${randomSuffix()}`;
  });
  const k = (name: string): string => `${prefix}/${name}`;
  const store = (): ObjectStore => target().store;

  describe('bytes', () => {
    it('puts, gets, stats, checks and deletes a buffer', async () => {
      const data = randomBytes(1000);
      const { etag } = await store().put(k('a.bin'), data, { contentType: 'image/png' });
      expect(etag).toEqual(expect.any(String));

      expect(sha256(await readAll(await store().get(k('a.bin'))))).toBe(sha256(data));
      const stat = await store().stat(k('a.bin'));
      expect(stat).toEqual({ size: 1000, contentType: 'image/png', etag, lastModified: expect.any(Date) });
      expect(Math.abs(stat.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
      expect(await store().exists(k('a.bin'))).toBe(true);

      await store().delete(k('a.bin'));
      expect(await store().exists(k('a.bin'))).toBe(false);
      await expectDomainError(store().get(k('a.bin')), 'notFound');
    });

    it('defaults the content type and stores empty objects', async () => {
      await store().put(k('empty'), Buffer.alloc(0));
      expect(await store().stat(k('empty'))).toMatchObject({
        size: 0,
        contentType: 'application/octet-stream',
      });
      expect((await readAll(await store().get(k('empty')))).length).toBe(0);
    });

    it('replaces an object on put, content type and etag included', async () => {
      const first = await store().put(k('doc'), Buffer.from('first'), { contentType: 'text/plain' });
      const second = await store().put(k('doc'), Buffer.from('second version'), {
        contentType: 'application/pdf',
      });
      expect(second.etag).not.toBe(first.etag);
      expect((await readAll(await store().get(k('doc')))).toString()).toBe('second version');
      expect(await store().stat(k('doc'))).toMatchObject({ size: 14, contentType: 'application/pdf' });
    });

    it('keeps "a" and "a/b" as two objects', async () => {
      await store().put(k('a'), Buffer.from('parent'));
      await store().put(k('a/b'), Buffer.from('child'));
      expect(await readAll(await store().get(k('a')))).toEqual(Buffer.from('parent'));
      expect(await readAll(await store().get(k('a/b')))).toEqual(Buffer.from('child'));
    });
  });

  describe('streams', () => {
    it('puts a stream of unknown size and reads back identical bytes', async () => {
      const size = target().streamSize;
      const source = randomStream(size);
      await store().put(k('big.bin'), source.stream, { contentType: 'application/zip' });
      expect(sha256(await readAll(await store().get(k('big.bin'))))).toBe(source.digest());
      expect(await store().stat(k('big.bin'))).toMatchObject({ size, contentType: 'application/zip' });
    });

    it('puts a stream of declared size', async () => {
      const source = randomStream(2 * MIB + 3);
      await store().put(k('known.bin'), source.stream, { size: 2 * MIB + 3 });
      expect(sha256(await readAll(await store().get(k('known.bin'))))).toBe(source.digest());
    });

    it.each([
      ['longer', 1],
      ['shorter', -1],
    ])('refuses a stream %s than its declared size and keeps the previous object', async (_name, delta) => {
      await store().put(k('kept'), Buffer.from('previous'));
      const size = target().streamSize;
      await expectDomainError(
        store().put(k('kept'), randomStream(size).stream, { size: size - delta }),
        'invalidArgument',
      );
      await expectDomainError(store().put(k('small'), Buffer.from('abc'), { size: 4 }), 'invalidArgument');
      expect((await readAll(await store().get(k('kept')))).toString()).toBe('previous');
      expect(await store().exists(k('small'))).toBe(false);
    });

    it.each([
      ['misaligned with the parts', 100 * 1024 + 7],
      ['one part each', 5 * MIB],
    ])('stores intact the chunks of a producer that reuses one buffer (%s)', async (_, chunk) => {
      if (!target().finishesEachChunk) return;
      const data = randomBytes(target().streamSize + 11);
      // One buffer, refilled with the next bytes each time the store asks for more.
      async function* reusing() {
        const buffer = Buffer.alloc(chunk);
        for (let at = 0; at < data.length; at += chunk)
          yield buffer.subarray(0, data.copy(buffer, 0, at, at + chunk));
      }
      await store().put(k('reused.bin'), reusing());
      expect(sha256(await readAll(await store().get(k('reused.bin'))))).toBe(sha256(data));
    });

    it('fails a put whose source fails, keeping the previous object', async () => {
      await store().put(k('kept'), Buffer.from('previous'));
      await expect(store().put(k('kept'), failingStream(MIB))).rejects.toThrow('source failed');
      expect((await readAll(await store().get(k('kept')))).toString()).toBe('previous');
    });
  });

  describe('missing objects and keys', () => {
    it('answers notFound for get and stat, false for exists', async () => {
      await expectDomainError(store().get(k('missing')), 'notFound');
      await expectDomainError(store().stat(k('missing')), 'notFound');
      expect(await store().exists(k('missing'))).toBe(false);
    });

    it('deletes idempotently', async () => {
      await store().delete(k('never-existed'));
      await store().put(k('twice'), Buffer.from('x'));
      await store().delete(k('twice'));
      await store().delete(k('twice'));
      expect(await store().exists(k('twice'))).toBe(false);
    });

    it.each(['../escape', '/absolute', 'a//b', 'sp ace', 'a/./b', ''])(
      'refuses the key %j everywhere',
      async (bad) => {
        const s = store();
        for (const attempt of [
          s.put(bad, Buffer.from('x')),
          s.get(bad),
          s.stat(bad),
          s.delete(bad),
          s.exists(bad),
          s.presignGet(bad, { expiresInSeconds: 60 }),
          s.presignPut(bad, { expiresInSeconds: 60 }),
        ]) {
          await expectDomainError(attempt, 'invalidArgument');
        }
      },
    );
  });

  describe('listing', () => {
    const listed = async (prefix: string) => {
      const found = [];
      for await (const item of store().list(prefix)) found.push(item);
      return found.sort((a, b) => a.key.localeCompare(b.key));
    };

    it('lists every key under a prefix with its write time, and nothing else', async () => {
      await store().put(k('list/a'), Buffer.from('a'));
      await store().put(k('list/b/c'), randomBytes(1000));
      await store().put(k('listed-not'), Buffer.from('x'));
      const found = await listed(k('list/'));
      expect(found.map((o) => o.key)).toEqual([k('list/a'), k('list/b/c')]);
      for (const o of found) expect(Math.abs(o.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
      expect((await listed(prefix)).length).toBe(3);

      await store().delete(k('list/a'));
      expect((await listed(k('list/'))).map((o) => o.key)).toEqual([k('list/b/c')]);
      expect(await listed(k('nothing/'))).toEqual([]);
    });

    it.each(['sp ace', 'a%2F', 'ü'])('refuses the prefix %j', async (bad) => {
      await expectDomainError(listed(bad), 'invalidArgument');
    });
  });

  describe('presigned URLs', () => {
    const file = randomBytes(300 * 1024);

    async function uploadWith(url: string, body: Buffer, contentType: string): Promise<Response> {
      return fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });
    }

    it('uploads with a presigned PUT and downloads the same bytes and type with a presigned GET', async () => {
      const putUrl = await store().presignPut(k('upload/photo.jpg'), { expiresInSeconds: 300 });
      const put = await uploadWith(putUrl, file, 'image/jpeg');
      expect(put.status).toBe(200);
      expect(await store().stat(k('upload/photo.jpg'))).toMatchObject({
        size: file.length,
        contentType: 'image/jpeg',
      });

      const get = await fetch(await store().presignGet(k('upload/photo.jpg'), { expiresInSeconds: 300 }));
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('image/jpeg');
      expect(sha256(Buffer.from(await get.arrayBuffer()))).toBe(sha256(file));
    });

    it('serves an object put through the store', async () => {
      await store().put(k('report.csv'), Buffer.from('a,b\n1,2\n'), { contentType: 'text/csv' });
      const get = await fetch(await store().presignGet(k('report.csv'), { expiresInSeconds: 60 }));
      expect(get.status).toBe(200);
      expect(await get.text()).toBe('a,b\n1,2\n');
    });

    it('answers 404 to a presigned GET of a missing object', async () => {
      const get = await fetch(await store().presignGet(k('nothing-here'), { expiresInSeconds: 60 }));
      expect(get.status).toBe(404);
    });

    it('refuses expired URLs', async () => {
      await store().put(k('old.txt'), Buffer.from('x'));
      // Signed an hour ago for one minute: expired 59 minutes ago, by the server's own clock.
      target().setClockOffset(-3600_000);
      const signed = Promise.all([
        store().presignGet(k('old.txt'), { expiresInSeconds: 60 }),
        store().presignPut(k('late.txt'), { expiresInSeconds: 60 }),
      ]);
      const [getUrl, putUrl] = await signed.finally(() => target().setClockOffset(0));
      expect((await fetch(getUrl)).status).toBe(403);
      expect((await uploadWith(putUrl, file, 'text/plain')).status).toBe(403);
      expect(await store().exists(k('late.txt'))).toBe(false);
    });

    it('refuses a tampered signature', async () => {
      await store().put(k('t.txt'), Buffer.from('x'));
      const getUrl = await store().presignGet(k('t.txt'), { expiresInSeconds: 60 });
      const putUrl = await store().presignPut(k('t2.txt'), { expiresInSeconds: 60 });
      expect((await fetch(tamperParam(getUrl, target().signatureParam))).status).toBe(403);
      expect(
        (await uploadWith(tamperParam(putUrl, target().signatureParam), file, 'text/plain')).status,
      ).toBe(403);
      expect(await store().exists(k('t2.txt'))).toBe(false);
    });

    it('grants only the method and key it was signed for', async () => {
      await store().put(k('mine.txt'), Buffer.from('mine'));
      await store().put(k('other.txt'), Buffer.from('other'));
      const putUrl = await store().presignPut(k('mine.txt'), { expiresInSeconds: 60 });
      expect((await fetch(putUrl)).status).toBe(403); // a PUT URL does not allow GET

      const getUrl = new URL(await store().presignGet(k('mine.txt'), { expiresInSeconds: 60 }));
      getUrl.pathname = getUrl.pathname.replace(/mine\.txt$/, 'other.txt');
      expect((await fetch(getUrl)).status).toBe(403);
    });

    it('refuses expiries S3 would refuse', async () => {
      await expectDomainError(store().presignGet(k('x'), { expiresInSeconds: 0 }), 'invalidArgument');
      await expectDomainError(
        store().presignPut(k('x'), { expiresInSeconds: 8 * 24 * 3600 }),
        'invalidArgument',
      );
    });
  });

  it('round-trips a stream through a Readable that the caller wraps', async () => {
    // Callers often hand over streams produced by other libraries (e.g. Readable.from over chunks).
    const chunks = [Buffer.from('one,'), Buffer.from('two,'), Buffer.from('three')];
    await store().put(k('chunks.txt'), Readable.from(chunks), { contentType: 'text/plain' });
    expect((await readAll(await store().get(k('chunks.txt')))).toString()).toBe('one,two,three');
  });
}
