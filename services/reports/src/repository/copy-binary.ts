/** The 11 bytes a binary COPY starts with. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Signature, flags (4 bytes) and the length of the header extension that follows (4 bytes). */
const HEADER_BYTES = SIGNATURE.length + 8;

type Phase = 'header' | 'extension' | 'count' | 'length' | 'value' | 'end';

/**
 * The values of a `COPY ... TO STDOUT (FORMAT binary)` of one text column, joined: the file format's framing
 * (header, each tuple's field count and value length, the trailer) taken out of the stream as it arrives, in
 * chunks cut anywhere. Binary rather than text format, so that values arrive as they are, with no escapes to
 * undo. A NULL value adds nothing. Anything but one column, or bytes after the trailer, is an error.
 */
export class CopyBinaryValues {
  /** Tuples read so far. */
  rows = 0;
  private phase: Phase = 'header';
  private readonly small = Buffer.alloc(HEADER_BYTES);
  private filled = 0;
  /** Bytes of the header extension, or of the value, still to come. */
  private left = 0;

  /**
   * The value bytes `chunk` holds, moved to its start (in place: a chunk read from the connection is this
   * reader's alone, and a copy of every chunk would be as much garbage again as the report's size); a view
   * of `chunk`, empty when it holds none.
   */
  take(chunk: Buffer): Buffer {
    const out = chunk;
    let n = 0;
    let at = 0;
    while (at < chunk.length) {
      switch (this.phase) {
        case 'header':
          at = this.fill(chunk, at, HEADER_BYTES);
          if (this.filled < HEADER_BYTES) break;
          if (!this.small.subarray(0, SIGNATURE.length).equals(SIGNATURE))
            throw new Error('not a binary COPY stream');
          this.left = this.small.readUInt32BE(SIGNATURE.length + 4);
          this.next(this.left > 0 ? 'extension' : 'count');
          break;
        case 'extension': {
          const k = Math.min(this.left, chunk.length - at);
          at += k;
          this.left -= k;
          if (this.left === 0) this.next('count');
          break;
        }
        case 'count': {
          at = this.fill(chunk, at, 2);
          if (this.filled < 2) break;
          const fields = this.small.readInt16BE(0);
          if (fields === -1) this.next('end');
          else if (fields !== 1) throw new Error(`a binary COPY row of ${fields} columns, not 1`);
          else this.next('length');
          break;
        }
        case 'length':
          at = this.fill(chunk, at, 4);
          if (this.filled < 4) break;
          this.rows++;
          this.left = Math.max(0, this.small.readInt32BE(0));
          this.next(this.left > 0 ? 'value' : 'count');
          break;
        case 'value': {
          const k = Math.min(this.left, chunk.length - at);
          chunk.copy(out, n, at, at + k);
          n += k;
          at += k;
          this.left -= k;
          if (this.left === 0) this.next('count');
          break;
        }
        case 'end':
          throw new Error('bytes after the end of a binary COPY stream');
      }
    }
    return out.subarray(0, n);
  }

  /** Throws unless the stream's trailer was read. */
  end(): void {
    if (this.phase !== 'end') throw new Error('the binary COPY stream ended before its trailer');
  }

  private next(phase: Phase): void {
    this.phase = phase;
    this.filled = 0;
  }

  /** Copies up to `size` bytes into `small` (across chunks); the position after what it took. */
  private fill(chunk: Buffer, at: number, size: number): number {
    const k = Math.min(size - this.filled, chunk.length - at);
    chunk.copy(this.small, this.filled, at, at + k);
    this.filled += k;
    return at + k;
  }
}
