import type { IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { isDomainError } from '@eligo/runtime';
import { coalesce, spoolMultipart, SPOOL_WRITE_BYTES } from './multipart-spool';

async function collect(chunks: Buffer[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of coalesce(Readable.from(chunks))) out.push(chunk);
  return out;
}

describe('coalesce (spool writes)', () => {
  it('joins socket-sized chunks into writes of at least SPOOL_WRITE_BYTES, bytes and order kept', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const out = await collect(chunks);
    expect(out.map((b) => b.length)).toEqual([SPOOL_WRITE_BYTES, SPOOL_WRITE_BYTES, 8 * 64 * 1024]);
    expect(Buffer.concat(out).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('passes a small file as one write, and nothing for an empty one', async () => {
    expect((await collect([Buffer.from('ab'), Buffer.from('c')])).map(String)).toEqual(['abc']);
    expect(await collect([])).toEqual([]);
  });

  it('keeps a chunk larger than the write size whole', async () => {
    const big = Buffer.alloc(SPOOL_WRITE_BYTES * 2 + 1, 7);
    const out = await collect([Buffer.from('x'), big]);
    expect(out).toHaveLength(1);
    expect(out[0]!.length).toBe(big.length + 1);
  });
});

describe('spoolMultipart: a client that goes away mid-body', () => {
  it("is the client's invalidRequest (never a 5xx logged as a failure)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-test-'));
    try {
      const boundary = 'b0undary';
      const req = Object.assign(new PassThrough(), {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        complete: false,
      }) as unknown as IncomingMessage & PassThrough;
      const spooled = spoolMultipart(req, dir);
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file1"; filename="a.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      );
      req.write(Buffer.alloc(64 * 1024, 7));
      // What Node's HTTP server emits when the client resets the connection mid-body.
      req.emit('error', Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      const err = await spooled.catch((e: unknown) => e);
      expect(isDomainError(err)).toBe(true);
      expect(err).toMatchObject({ kind: 'invalidArgument', errorIds: ['invalidRequest'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
