import type { Readable } from 'node:stream';
import { toBuffer } from '../crypto/chunk-reader';

/** What a put takes: a whole body, a stream, or chunks produced on demand (see readParts). */
export type ObjectBody = Buffer | Readable | AsyncIterable<Buffer>;

/**
 * Splits a body into parts of exactly `partSize` bytes; only the last part may be shorter, and an empty body
 * yields one empty part. A stream is pulled lazily as parts are consumed, so memory stays at about one part
 * whatever the object's size (this is what keeps S3 uploads streamed rather than buffered whole).
 *
 * Each source chunk is finished with before the next one is pulled: a chunk that is a whole part by itself
 * is handed on as it is (no copy) and its part is consumed before the source is asked again; anything else
 * is copied into a part of its own. So a producer that reuses a chunk's memory once asked for the next one
 * (the report worker's part buffers) is safe, provided nothing pulls ahead of the parts (an async iterable,
 * not a Readable, which buffers ahead).
 */
export async function* readParts(
  source: ObjectBody,
  partSize: number,
  /** Where a part's buffer comes from (the S3 store lends reused ones). */
  allocate: (size: number) => Buffer = Buffer.allocUnsafe,
): AsyncGenerator<Buffer> {
  if (!Number.isSafeInteger(partSize) || partSize < 1)
    throw new RangeError('partSize must be a positive integer');
  if (Buffer.isBuffer(source)) {
    yield* sliceBuffer(source, partSize);
    return;
  }
  let part: Buffer | undefined;
  let filled = 0;
  let yielded = false;
  for await (const chunk of source) {
    let bytes = toBuffer(chunk);
    while (filled === 0 && bytes.length >= partSize) {
      yielded = true;
      yield bytes.subarray(0, partSize);
      bytes = bytes.subarray(partSize);
    }
    while (bytes.length > 0) {
      part ??= allocate(partSize);
      const copied = bytes.copy(part, filled);
      filled += copied;
      bytes = bytes.subarray(copied);
      if (filled === partSize) {
        yielded = true;
        yield part;
        part = undefined;
        filled = 0;
      }
    }
  }
  if (filled > 0) yield part!.subarray(0, filled);
  else if (!yielded) yield Buffer.alloc(0);
}

function* sliceBuffer(buffer: Buffer, partSize: number): Generator<Buffer> {
  if (buffer.length === 0) yield buffer;
  for (let offset = 0; offset < buffer.length; offset += partSize) {
    yield buffer.subarray(offset, offset + partSize);
  }
}
