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
      // Each buffered piece as it is: no copy to join what the caller takes piece by piece anyway.
      while (await this.more()) {
        const pieces = this.buffered;
        this.buffered = [];
        this.length = 0;
        yield* pieces;
      }
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

  /**
   * The next `n` buffered bytes. Only a block that straddles source chunks is copied, and only its own
   * bytes: the rest stays a view of its chunk, so each byte is copied at most once however the source's
   * chunk sizes fall against the block size.
   */
  private take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    this.length -= n;
    const first = this.buffered[0]!;
    if (first.length >= n) {
      if (first.length === n) this.buffered.shift();
      else this.buffered[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const pieces: Buffer[] = [];
    for (let got = 0; got < n;) {
      const piece = this.buffered[0]!;
      const need = n - got;
      if (piece.length <= need) {
        pieces.push(piece);
        this.buffered.shift();
        got += piece.length;
      } else {
        pieces.push(piece.subarray(0, need));
        this.buffered[0] = piece.subarray(need);
        got = n;
      }
    }
    return Buffer.concat(pieces, n);
  }
}

/** A stream chunk as bytes (Readable.from over strings yields strings; some libraries yield Uint8Array). */
export function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('object body streams must produce bytes');
}
