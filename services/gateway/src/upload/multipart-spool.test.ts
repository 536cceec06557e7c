import { Readable } from 'node:stream';
import { coalesce, SPOOL_WRITE_BYTES } from './multipart-spool';

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
