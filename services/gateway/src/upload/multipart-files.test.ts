import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { documentsV1Lean } from '@eligo/proto';
import { isDomainError } from '@eligo/runtime';
import { coalesce, multipartFiles, UPLOAD_CHUNK_BYTES } from './multipart-files';

async function collect(chunks: Buffer[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of coalesce(Readable.from(chunks))) out.push(chunk);
  return out;
}

describe('coalesce (chunk messages)', () => {
  it('joins socket-sized chunks into pieces of at least UPLOAD_CHUNK_BYTES, bytes and order kept', async () => {
    const chunks = Array.from({ length: 10 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const out = await collect(chunks);
    expect(out.map((b) => b.length)).toEqual([UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_BYTES, 2 * 64 * 1024]);
    expect(Buffer.concat(out).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('passes a small file as one piece, and nothing for an empty one', async () => {
    expect((await collect([Buffer.from('ab'), Buffer.from('c')])).map(String)).toEqual(['abc']);
    expect(await collect([])).toEqual([]);
  });

  it('leaves room before each piece for its message header: the message is written without a copy', async () => {
    const chunks = Array.from({ length: 5 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const serialize = documentsV1Lean.DocumentsServiceService.uploadFiles.requestSerialize;
    for (const piece of await collect(chunks)) {
      const message = serialize({ part: { $case: 'chunk', chunk: piece } });
      expect(message.buffer).toBe(piece.buffer);
      expect(message.subarray(message.length - piece.length).equals(piece)).toBe(true);
    }
  });

  it('keeps a chunk larger than the piece size whole', async () => {
    const big = Buffer.alloc(UPLOAD_CHUNK_BYTES * 2 + 1, 7);
    const out = await collect([Buffer.from('x'), big]);
    expect(out).toHaveLength(1);
    expect(out[0]!.length).toBe(big.length + 1);
  });
});

const boundary = 'b0undary';
const head = (name: string, fileName: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\n` +
  'Content-Type: image/png\r\n\r\n';

/** A request body the test writes as it likes, as Node's HTTP server hands one over. */
function requestBody() {
  return Object.assign(new PassThrough(), {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    complete: false,
  }) as unknown as IncomingMessage & PassThrough & { complete: boolean };
}

describe('multipartFiles', () => {
  it('yields each file as its header, then its bytes, and ends once the body did', async () => {
    const req = requestBody();
    const files = multipartFiles(req, new AbortController().signal);
    req.end(`${head('file1', 'a.png')}AAA\r\n${head('file2', 'b.png')}BB\r\n--${boundary}--\r\n`);
    req.complete = true;
    const seen: unknown[] = [];
    for await (const m of files) seen.push(m.part?.$case === 'chunk' ? String(m.part.chunk) : m.part);
    expect(seen).toEqual([
      { $case: 'file', file: { fileName: 'a.png', mimeType: 'image/png' } },
      'AAA',
      { $case: 'file', file: { fileName: 'b.png', mimeType: 'image/png' } },
      'BB',
    ]);
    expect(req.listenerCount('data')).toBe(0);
  });

  it("answers a client that goes away mid-body with the client's invalidRequest (never a 5xx)", async () => {
    const req = requestBody();
    const files = multipartFiles(req, new AbortController().signal);
    req.write(head('file1', 'a.png'));
    req.write(Buffer.alloc(64 * 1024, 7));
    expect((await files.next()).value).toMatchObject({ part: { $case: 'file' } });
    // What Node's HTTP server emits when the client resets the connection mid-body.
    req.emit('error', Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    const err = await (async () => {
      for await (const _ of files);
    })().catch((e: unknown) => e);
    expect(isDomainError(err)).toBe(true);
    expect(err).toMatchObject({ kind: 'invalidArgument', errorIds: ['invalidRequest'] });
    expect(req.listenerCount('data')).toBe(0);
  });

  it('stops a read still waiting for the body when the request is over, never ending as if complete', async () => {
    const req = requestBody();
    const over = new AbortController();
    const files = multipartFiles(req, over.signal);
    req.write(head('file1', 'a.png'));
    req.write(Buffer.alloc(1024, 7));
    expect((await files.next()).value).toMatchObject({ part: { $case: 'file' } });
    // Waits for the rest of the file (a chunk message is at least UPLOAD_CHUNK_BYTES until the part ends).
    const waiting = files.next();
    await new Promise((r) => setTimeout(r, 20));
    over.abort();
    await expect(waiting).rejects.toMatchObject({ errorIds: ['invalidRequest'] });
    expect(req.listenerCount('data')).toBe(0);
    // Also before the first part has arrived.
    const later = requestBody();
    const stop = new AbortController();
    const none = multipartFiles(later, stop.signal).next();
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await expect(none).rejects.toMatchObject({ errorIds: ['invalidRequest'] });
  });

  it('lets go of the body when its consumer stops early', async () => {
    const req = requestBody();
    const files = multipartFiles(req, new AbortController().signal);
    req.write(head('file1', 'a.png'));
    req.write(Buffer.alloc(300 * 1024, 7));
    expect((await files.next()).value).toMatchObject({ part: { $case: 'file' } });
    expect((await files.next()).value).toMatchObject({ part: { $case: 'chunk' } });
    await files.return();
    expect(req.listenerCount('data')).toBe(0);
    expect(req.listenerCount('close')).toBe(0);
  });
});
