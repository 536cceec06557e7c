import { Readable } from 'node:stream';
import { readParts } from './byte-parts';

async function collect(parts: AsyncGenerator<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));

describe('readParts', () => {
  it.each([
    ['empty body (one empty part, so it can still be PUT)', 0, 4, [0]],
    ['shorter than a part', 3, 4, [3]],
    ['exactly one part', 4, 4, [4]],
    ['several parts and a tail', 10, 4, [4, 4, 2]],
    ['exact multiple', 8, 4, [4, 4]],
  ])('splits a %s (%d bytes by %d)', async (_name, size, partSize, lengths) => {
    const data = bytes(size);
    const chunks = size === 0 ? [] : [data.subarray(0, 1), data.subarray(1)];
    for (const source of [data, Readable.from(chunks)]) {
      const parts = await collect(readParts(source, partSize));
      expect(parts.map((p) => p.length)).toEqual(lengths);
      expect(Buffer.concat(parts)).toEqual(data);
    }
  });

  it('reassembles parts from chunks of any size, including chunks larger than a part', async () => {
    const data = bytes(1000);
    const chunks = [data.subarray(0, 1), data.subarray(1, 700), data.subarray(700, 701), data.subarray(701)];
    const parts = await collect(readParts(Readable.from(chunks), 128));
    expect(parts.slice(0, -1).every((p) => p.length === 128)).toBe(true);
    expect(Buffer.concat(parts)).toEqual(data);
  });

  it('pulls the source lazily, holding about one part rather than the whole body', async () => {
    const partSize = 64 * 1024;
    const chunkSize = 1024;
    let produced = 0;
    const source = new Readable({
      highWaterMark: chunkSize,
      read() {
        if (produced >= 100 * partSize) return this.push(null);
        produced += chunkSize;
        this.push(Buffer.alloc(chunkSize));
      },
    });
    let consumed = 0;
    let maxAhead = 0;
    for await (const part of readParts(source, partSize)) {
      consumed += part.length;
      maxAhead = Math.max(maxAhead, produced - consumed);
    }
    expect(consumed).toBe(100 * partSize);
    // The generator never reads more than one part (plus the stream's small internal buffer) ahead.
    expect(maxAhead).toBeLessThanOrEqual(partSize + 4 * chunkSize);
  });

  it('finishes with each chunk before pulling the next: a producer may reuse its chunk buffer', async () => {
    const data = bytes(1000);
    // One buffer, refilled with the next bytes each time the producer is asked again.
    async function* reusing(size: number) {
      const buffer = Buffer.alloc(size);
      for (let at = 0; at < data.length; at += size) {
        const n = data.copy(buffer, 0, at, at + size);
        yield buffer.subarray(0, n);
      }
    }
    for (const [chunk, partSize] of [
      [128, 128],
      [100, 128],
      [300, 128],
    ] as const) {
      const parts: Buffer[] = [];
      // Each part is consumed (copied here, uploaded by the S3 store) before the next is asked for.
      for await (const part of readParts(reusing(chunk), partSize)) parts.push(Buffer.from(part));
      expect(Buffer.concat(parts)).toEqual(data);
      expect(parts.slice(0, -1).every((p) => p.length === partSize)).toBe(true);
    }
  });

  it('hands a chunk that is a whole part on as it is, without copying it', async () => {
    // Larger than Node's pool slabs, so that sharing an ArrayBuffer means sharing the memory.
    const chunk = bytes(64 * 1024);
    const parts = await collect(readParts(Readable.from([chunk]), 64 * 1024));
    expect(parts[0]!.buffer).toBe(chunk.buffer);
    expect(parts[0]!.byteOffset).toBe(chunk.byteOffset);
  });

  it('accepts string and Uint8Array chunks', async () => {
    const parts = await collect(readParts(Readable.from(['ab', new Uint8Array([99, 100])]), 3));
    expect(Buffer.concat(parts).toString()).toBe('abcd');
  });

  it('rejects non-byte chunks', async () => {
    await expect(collect(readParts(Readable.from([{ not: 'bytes' }]), 3))).rejects.toThrow(/bytes/);
  });
});
