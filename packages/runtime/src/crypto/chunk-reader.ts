/**
 * Reads exact byte counts from a stream whose chunks have any size (network reads, file reads, a caller's
 * Buffer): what a block format needs. Pulls from the source only when asked, so backpressure is kept and at
 * most one block plus one source chunk is held.
 */
export class ChunkReader implements AsyncIterable<Buffer> {
  private readonly source: AsyncIterator<unknown>;
  private buffered: Buffer[] = [];
  private length = 0;
  private ended = false;

  constructor(source: AsyncIterable<unknown>) {
    this.source = source[Symbol.asyncIterator]();
  }

  /** The next `n` bytes; fewer only when the source ended first (none at its end). */
  async read(n: number): Promise<Buffer> {
    await this.fill(n);
    return this.take(Math.min(n, this.length));
  }

  /** The next `n` bytes (fewer at the end), left in place for the next read. */
  async peek(n: number): Promise<Buffer> {
    await this.fill(n);
    const next = this.take(Math.min(n, this.length));
    this.buffered.unshift(next);
    this.length += next.length;
    return next;
  }

  /** Whatever was not read yet, as it arrives. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    try {
      while (await this.more()) yield this.take(this.length);
    } finally {
      await this.close();
    }
  }

  /** Whether another byte follows what was read so far (reads ahead one source chunk when needed). */
  async more(): Promise<boolean> {
    await this.fill(1);
    return this.length > 0;
  }

  /** Stops the source early (a for-await that breaks does the same): a stream is destroyed. */
  async close(): Promise<void> {
    if (!this.ended) await this.source.return?.();
    this.ended = true;
  }

  private async fill(n: number): Promise<void> {
    while (this.length < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) {
        this.ended = true;
        break;
      }
      const chunk = toBuffer(next.value);
      this.buffered.push(chunk);
      this.length += chunk.length;
    }
  }

  private take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered, this.length);
    const rest = all.subarray(n);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return all.subarray(0, n);
  }
}

/** A stream chunk as bytes (Readable.from over strings yields strings; some libraries yield Uint8Array). */
export function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('object body streams must produce bytes');
}
