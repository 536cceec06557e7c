import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { isDomainError, type DomainErrorKind } from '../../src/errors/domain-error';

export const MIB = 1024 * 1024;

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * A stream of `size` random bytes produced on demand (never held whole), with the SHA-256 of everything it
 * produced available once it has ended.
 */
export function randomStream(
  size: number,
  chunkSize = 64 * 1024,
): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let left = size;
  const stream = new Readable({
    read() {
      if (left === 0) return void this.push(null);
      const chunk = randomBytes(Math.min(chunkSize, left));
      left -= chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.copy().digest('hex') };
}

/** A stream that sends `good` bytes and then fails, like a client that disconnects mid-upload. */
export function failingStream(good: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(good));
      } else {
        this.destroy(new Error('source failed'));
      }
    },
  });
}

export async function expectDomainError(promise: Promise<unknown>, kind: DomainErrorKind): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isDomainError(err)) throw new Error(`expected a ${kind} DomainError, got ${String(err)}`);
  expect(err.kind).toBe(kind);
}

/** Changes one hex digit of a URL's query parameter, keeping its length and alphabet. */
export function tamperParam(url: string, param: string): string {
  const parsed = new URL(url);
  const value = parsed.searchParams.get(param);
  if (!value) throw new Error(`URL has no ${param}`);
  const last = value.at(-1) === '0' ? '1' : '0';
  parsed.searchParams.set(param, value.slice(0, -1) + last);
  return parsed.toString();
}

export function randomSuffix(): string {
  return randomBytes(6).toString('hex');
}
