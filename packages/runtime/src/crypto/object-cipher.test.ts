import { randomBytes } from 'node:crypto';
import {
  createObjectCipher,
  isSealed,
  plainSize,
  SEALED_CHUNK_BYTES,
  SEALED_HEADER_BYTES,
  SealedObjectError,
  sealedSize,
} from './object-cipher';

const master = randomBytes(32);
const cipher = createObjectCipher(master, 'documents');
const KEY = 'documents/u/d';
const CHUNK = SEALED_CHUNK_BYTES;
const SEALED_CHUNK = CHUNK + 16;

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

/** `data` in pieces of `size` bytes, as a network stream would deliver it. */
async function* pieces(data: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

const seal = (data: Buffer, key = KEY, pieceSize = 1000) =>
  collect(cipher.seal(pieces(data, pieceSize), key));
const open = async (sealed: Buffer, key = KEY, using = cipher) =>
  collect(await using.open(pieces(sealed, 777), key));

describe('object cipher', () => {
  it.each([0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 5])(
    'round-trips %i bytes, with the sealed size a function of the content size',
    async (size) => {
      const data = randomBytes(size);
      const sealed = await seal(data);
      expect(isSealed(sealed)).toBe(true);
      expect(sealed.length).toBe(sealedSize(size));
      expect(plainSize(sealed.length)).toBe(size);
      expect((await open(sealed)).equals(data)).toBe(true);
    },
  );

  it('hides the content and seals the same content differently each time', async () => {
    const data = Buffer.from('ZZPLAINTEXTMARKER Jane Doe,'.repeat(5000));
    const [one, two] = [await seal(data), await seal(data)];
    expect(one.includes('ZZPLAINTEXTMARKER')).toBe(false);
    expect(one.subarray(SEALED_HEADER_BYTES).equals(two.subarray(SEALED_HEADER_BYTES))).toBe(false);
  });

  it('takes input in any chunking (single bytes, one large buffer)', async () => {
    const data = randomBytes(CHUNK + 10);
    expect((await open(await seal(data, KEY, 1))).equals(data)).toBe(true);
    expect((await open(await seal(data, KEY, data.length))).equals(data)).toBe(true);
  });

  it('tells a sealed object from bytes stored in the clear', () => {
    expect(isSealed(Buffer.from('%PDF-1.4\n'))).toBe(false);
    expect(isSealed(Buffer.from('verificationId,programId\n'))).toBe(false);
    expect(isSealed(Buffer.alloc(3))).toBe(false);
  });

  describe('refuses what it did not seal, releasing no byte of a chunk that fails', () => {
    const data = randomBytes(3 * CHUNK + 100);
    let sealed: Buffer;
    beforeAll(async () => {
      sealed = await seal(data);
    });
    const chunk = (i: number) =>
      sealed.subarray(SEALED_HEADER_BYTES + i * SEALED_CHUNK, SEALED_HEADER_BYTES + (i + 1) * SEALED_CHUNK);
    const header = () => sealed.subarray(0, SEALED_HEADER_BYTES);

    /** The bytes released before the failure, and the failure. */
    async function released(tampered: Buffer, key = KEY, using = cipher) {
      const got: Buffer[] = [];
      try {
        for await (const part of await using.open(pieces(tampered, 4096), key)) got.push(part);
      } catch (err) {
        return { bytes: Buffer.concat(got).length, err };
      }
      throw new Error('opened a tampered object');
    }

    it.each([
      ['a flipped byte in the first chunk', () => flip(sealed, SEALED_HEADER_BYTES + 10), 0],
      ['a flipped byte in the last chunk', () => flip(sealed, sealed.length - 20), 3 * CHUNK],
      ['a cut at a chunk boundary', () => sealed.subarray(0, SEALED_HEADER_BYTES + 2 * SEALED_CHUNK), CHUNK],
      ['a cut inside a chunk', () => sealed.subarray(0, sealed.length - 50), 3 * CHUNK],
      ['the last chunk dropped', () => Buffer.concat([header(), chunk(0), chunk(1), chunk(2)]), 2 * CHUNK],
      ['two chunks swapped', () => Buffer.concat([header(), chunk(1), chunk(0)]), 0],
      ['bytes appended', () => Buffer.concat([sealed, Buffer.from('x')]), 3 * CHUNK],
      ['the header only', () => header(), 0],
    ])('%s', async (_name, tamper, expectedBytes) => {
      const { bytes, err } = await released(tamper());
      expect(err).toBeInstanceOf(SealedObjectError);
      expect(bytes).toBe(expectedBytes);
    });

    it('refuses a header that was changed, before returning anything', async () => {
      await expect(cipher.open(pieces(flip(sealed, 15), 100), KEY)).rejects.toThrow(/header failed/);
    });

    it('refuses the object under another key, another purpose or another master key', async () => {
      await expect(cipher.open(pieces(sealed, 100), 'documents/u/other')).rejects.toThrow(/header failed/);
      const reports = createObjectCipher(master, 'reports');
      await expect(reports.open(pieces(sealed, 100), KEY)).rejects.toThrow(/header failed/);
      const other = createObjectCipher(randomBytes(32), 'documents');
      await expect(other.open(pieces(sealed, 100), KEY)).rejects.toThrow(/another ELIGO_ENCRYPTION_KEY/);
    });

    it('refuses sizes no sealed object can have', () => {
      expect(() => plainSize(SEALED_HEADER_BYTES + 15)).toThrow(SealedObjectError);
      expect(() => plainSize(SEALED_HEADER_BYTES + SEALED_CHUNK + 3)).toThrow(SealedObjectError);
    });
  });
});

function flip(data: Buffer, at: number): Buffer {
  const copy = Buffer.from(data);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}
