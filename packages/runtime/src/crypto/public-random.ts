import { randomFillSync } from 'node:crypto';

// 4 KiB from the CSPRNG at a time: randomBytes(12) costs about 2.3 us a call on the development machine, nearly
// all of it the call, and every personal-info submission seals its person with a fresh IV.
const pool = Buffer.alloc(4096);
let next = pool.length;

/**
 * `size` (at most 64) fresh bytes from the CSPRNG, for values that are stored or sent in the clear once used
 * (IVs, nonces): they come from a pool refilled a page at a time, and a value drawn once is never drawn again.
 * Not for keys or other secrets, whose bytes would stay in the pool's memory: those take `randomBytes`.
 */
export function publicRandomBytes(size: number): Buffer {
  if (!Number.isInteger(size) || size < 1 || size > 64)
    throw new RangeError(`publicRandomBytes: ${size} bytes`);
  if (next + size > pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const out = Buffer.allocUnsafe(size);
  pool.copy(out, 0, next, next + size);
  next += size;
  return out;
}
