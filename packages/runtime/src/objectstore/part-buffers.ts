/**
 * The part buffers of the S3 store's puts, lent for one part and taken back once the store has the part.
 * A put of a stream copies it into parts of 5-8 MiB, each sent whole; a buffer that size lives for the whole
 * send, so V8 has promoted it to the old generation by then, and only a full collection frees it. Allocated
 * anew for each put (a 5 MB form B file is one part), they were a full collection of the whole heap every few
 * uploads (V8 starts one for every 64 MB of new external memory). Kept here, a few are allocated once and
 * reused. At most `maxIdle` per size wait for the next put, and none once `idleMs` passed without a put, so
 * an idle process gives the memory back.
 *
 * Only the bytes a part was filled with are ever sent (a view of its buffer), so what a reused buffer held
 * before never leaves it.
 */
export class PartBuffers {
  private readonly idle = new Map<number, Buffer[]>();
  private readonly lent = new WeakMap<ArrayBufferLike, Buffer>();
  private lastTake = 0;
  private trim: NodeJS.Timeout | undefined;
  /** Buffers allocated so far (the others were reused). */
  allocated = 0;

  constructor(
    private readonly maxIdle = 4,
    private readonly idleMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A buffer of `size` bytes, its content undefined. */
  take(size: number): Buffer {
    this.lastTake = this.now();
    let buffer = this.idle.get(size)?.pop();
    if (!buffer) {
      // Its own ArrayBuffer (never a slice of Node's shared pool), which identifies it in giveBack.
      buffer = Buffer.allocUnsafeSlow(size);
      this.allocated++;
    }
    this.lent.set(buffer.buffer, buffer);
    return buffer;
  }

  /**
   * `part`, a buffer from take() or a view of one, is no longer read by anything (its request is over). Any
   * other buffer is ignored. Never call it for a part whose send failed: a socket may still hold it.
   */
  giveBack(part: Buffer): void {
    const buffer = this.lent.get(part.buffer);
    if (!buffer) return;
    this.lent.delete(part.buffer);
    const idle = this.idle.get(buffer.length) ?? [];
    if (idle.length >= this.maxIdle) return;
    idle.push(buffer);
    this.idle.set(buffer.length, idle);
    this.trim ??= this.scheduleTrim(this.idleMs);
  }

  /** Buffers waiting for a put. */
  get idleCount(): number {
    let count = 0;
    for (const list of this.idle.values()) count += list.length;
    return count;
  }

  private scheduleTrim(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const quiet = this.now() - this.lastTake;
      if (quiet >= this.idleMs) {
        this.idle.clear();
        this.trim = undefined;
      } else this.trim = this.scheduleTrim(this.idleMs - quiet);
    }, ms);
    // Never what keeps a process alive.
    timer.unref();
    return timer;
  }
}
