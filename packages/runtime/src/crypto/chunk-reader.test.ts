import { randomBytes } from 'node:crypto';
import { ChunkReader } from './chunk-reader';

const KIB = 1024;

async function* chunksOf(sizes: number[], bytes: Buffer): AsyncGenerator<Buffer> {
  let at = 0;
  for (const size of sizes) {
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

describe('ChunkReader', () => {
  it.each([
    ['chunks larger than the block', [100 * KIB, 100 * KIB, 56 * KIB], 64 * KIB],
    ['chunks smaller than the block', [10 * KIB, 30 * KIB, 1, 90 * KIB, 5 * KIB], 16 * KIB],
    ['one byte at a time', Array<number>(300).fill(1), 7],
  ])('reads exact blocks across %s', async (_, sizes, block) => {
    const bytes = randomBytes(sizes.reduce((a, b) => a + b, 0));
    const reader = new ChunkReader(chunksOf(sizes, bytes));
    const blocks: Buffer[] = [];
    for (;;) {
      const next = await reader.read(block);
      if (next.length === 0) break;
      blocks.push(next);
    }
    expect(blocks.slice(0, -1).every((b) => b.length === block)).toBe(true);
    expect(Buffer.concat(blocks).equals(bytes)).toBe(true);
  });

  it('copies only a block that straddles chunks: the rest stay views of their chunk', async () => {
    const bytes = randomBytes(200 * KIB);
    const reader = new ChunkReader(chunksOf([100 * KIB, 100 * KIB], bytes));
    const first = await reader.read(64 * KIB);
    const straddling = await reader.read(64 * KIB);
    const third = await reader.read(64 * KIB);
    expect(first.buffer).toBe(bytes.buffer);
    expect(straddling.buffer).not.toBe(bytes.buffer);
    // Joining the two chunks whole to take the straddling block would have made this a view of that copy.
    expect(third.buffer).toBe(bytes.buffer);
    expect(Buffer.concat([first, straddling, third, await reader.read(64 * KIB)]).equals(bytes)).toBe(true);
  });

  it('peeks without consuming, then iterates over the rest piece by piece', async () => {
    const bytes = randomBytes(50);
    const reader = new ChunkReader(chunksOf([10, 20, 20], bytes));
    expect((await reader.peek(15)).equals(bytes.subarray(0, 15))).toBe(true);
    expect((await reader.read(5)).equals(bytes.subarray(0, 5))).toBe(true);
    const rest: Buffer[] = [];
    for await (const piece of reader) rest.push(piece);
    expect(Buffer.concat(rest).equals(bytes.subarray(5))).toBe(true);
    expect(await reader.more()).toBe(false);
  });
});
