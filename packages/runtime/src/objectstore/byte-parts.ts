import type { Readable } from 'node:stream';
import { toBuffer } from '../crypto/chunk-reader';

/**
 * Splits a body into parts of exactly `partSize` bytes; only the last part may be shorter, and an empty body
 * yields one empty part. A stream is pulled lazily as parts are consumed, so memory stays at about one part
 * whatever the object's size (this is what keeps S3 uploads streamed rather than buffered whole).
 */
export async function* readParts(source: Buffer | Readable, partSize: number): AsyncGenerator<Buffer> {
  if (!Number.isSafeInteger(partSize) || partSize < 1)
    throw new RangeError('partSize must be a positive integer');
  if (Buffer.isBuffer(source)) {
    yield* sliceBuffer(source, partSize);
    return;
  }
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let yielded = false;
  for await (const chunk of source) {
    let bytes = toBuffer(chunk);
    while (pendingBytes + bytes.length >= partSize) {
      const take = partSize - pendingBytes;
      pending.push(bytes.subarray(0, take));
      bytes = bytes.subarray(take);
      const part = Buffer.concat(pending, partSize);
      pending = [];
      pendingBytes = 0;
      yielded = true;
      yield part;
    }
    if (bytes.length > 0) {
      pending.push(bytes);
      pendingBytes += bytes.length;
    }
  }
  if (pendingBytes > 0 || !yielded) yield Buffer.concat(pending, pendingBytes);
}

function* sliceBuffer(buffer: Buffer, partSize: number): Generator<Buffer> {
  if (buffer.length === 0) yield buffer;
  for (let offset = 0; offset < buffer.length; offset += partSize) {
    yield buffer.subarray(offset, offset + partSize);
  }
}
