import { UploadFilesRequest } from '../gen/eligo/documents/v1/documents_service';

/**
 * UploadFiles' request codec for its `chunk` messages, which carry form B's bytes (256 KiB each, a 5 MB file
 * is some twenty of them). The generated codec copies each chunk five times: into a writer that grows by
 * doubling (zero-filled, twice the chunk), out of it (finish), into a Buffer (grpc-js wants one), and on the
 * other side out of the message again (decode copies bytes fields). In a process whose heap holds every
 * module, that garbage costs far more in collections than in copying. This codec writes a chunk message once,
 * at its exact size, or in place around a chunk from allocUploadChunk (no copy at all), and reads its chunk
 * as a view of the message. Every other message, and any chunk message that is not exactly one `chunk`
 * field, goes through the generated codec, so the bytes on the wire and the decoded values are the generated
 * codec's (checked by upload-files.test.ts).
 */

/** Field 3 (`chunk`), wire type 2 (length-delimited). */
const CHUNK_TAG = 26;
const MAX_VARINT32_BYTES = 5;
/** Room for a chunk message's header (its tag and length) before the chunk's bytes. */
const HEADROOM = 1 + MAX_VARINT32_BYTES;
/** The memory of chunks from allocUploadChunk, whose header room is theirs to write. */
const withHeadroom = new WeakSet<ArrayBufferLike>();

/**
 * A buffer for a chunk message's `size` bytes with room before them for the message's header, so that
 * serializeUploadFilesRequest writes the header there and answers the message without copying the bytes
 * (the gateway gathers each chunk from the socket's reads into one of these). Fill it whole.
 */
export function allocUploadChunk(size: number): Buffer {
  const memory = Buffer.allocUnsafeSlow(HEADROOM + size);
  withHeadroom.add(memory.buffer);
  return memory.subarray(HEADROOM);
}

export function serializeUploadFilesRequest(message: UploadFilesRequest): Buffer {
  const part = message.part;
  if (part?.$case !== 'chunk') return Buffer.from(UploadFilesRequest.encode(message).finish());
  const chunk = part.chunk;
  const length = chunk.length;
  const header = 1 + varintBytes(length);
  if (
    withHeadroom.has(chunk.buffer) &&
    chunk.byteOffset === HEADROOM &&
    HEADROOM + length === chunk.buffer.byteLength
  ) {
    // The same bytes written again if the message is serialized twice.
    const message = Buffer.from(chunk.buffer, HEADROOM - header, header + length);
    message[0] = CHUNK_TAG;
    writeVarint(message, 1, length);
    return message;
  }
  const out = Buffer.allocUnsafe(header + length);
  out[0] = CHUNK_TAG;
  writeVarint(out, 1, length);
  out.set(chunk, header);
  return out;
}

export function deserializeUploadFilesRequest(bytes: Buffer): UploadFilesRequest {
  if (bytes.length > 1 && bytes[0] === CHUNK_TAG) {
    const length = readVarint(bytes, 1);
    if (length !== undefined && 1 + varintBytes(length) + length === bytes.length)
      return { part: { $case: 'chunk', chunk: bytes.subarray(bytes.length - length) } };
  }
  return UploadFilesRequest.decode(bytes);
}

function varintBytes(value: number): number {
  let bytes = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    bytes++;
  }
  return bytes;
}

function writeVarint(out: Buffer, offset: number, value: number): void {
  while (value >= 0x80) {
    out[offset++] = (value % 128) | 0x80;
    value = Math.floor(value / 128);
  }
  out[offset] = value;
}

/**
 * A length of at most MAX_VARINT32_BYTES bytes in minimal form (the only form varintBytes counts, so a
 * padded varint falls through to the generated decoder), or undefined.
 */
function readVarint(bytes: Buffer, offset: number): number | undefined {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < MAX_VARINT32_BYTES && offset + i < bytes.length; i++) {
    const byte = bytes[offset + i]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
  return undefined;
}
