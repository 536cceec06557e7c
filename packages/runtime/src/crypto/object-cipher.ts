import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ChunkReader } from './chunk-reader';
import { deriveKey, masterKeyId } from './field-cipher';

/**
 * Envelope encryption of whole objects at rest (identity documents, report files), streamed: each object gets
 * a random 256-bit data key, stored wrapped under a key derived from the master key for the object's purpose
 * (deriveKey(master, "objectstore.<purpose>")), so rotating the master key means rewrapping 32 bytes per
 * object, never re-encrypting the content. The content is AES-256-GCM in chunks of 64 KiB (the STREAM
 * construction): each chunk is authenticated on its own, so plaintext is released chunk by chunk, only after
 * that chunk's tag verified, and memory stays at one chunk whatever the object's size.
 *
 *   header, 80 bytes
 *     magic        8   89 "ELIGO" 0d 0a: tells a sealed object from one stored in the clear before
 *     version      1   1
 *     key id       4   which master key (as the field cipher's)
 *     nonce prefix 7   random per object
 *     wrap iv     12   }
 *     data key    32   } AES-256-GCM under the purpose key; additional data: the 20 bytes above and the
 *     wrap tag    16   } object's key, so a sealed object copied under another key does not open
 *   chunks: ciphertext || 16-byte tag each, of 64 KiB of plaintext except the last (0 to 64 KiB; an empty
 *     object has one empty chunk). Nonce = prefix || chunk counter (4 bytes, big endian) || final flag (1 byte,
 *     1 on the last chunk only): reordered chunks, a cut at a chunk boundary and bytes appended after the
 *     last chunk all fail authentication.
 */
const MAGIC = Buffer.from([0x89, 0x45, 0x4c, 0x49, 0x47, 0x4f, 0x0d, 0x0a]);
/** Enough of an object's first bytes for isSealed. */
export const SEALED_MAGIC_BYTES = MAGIC.length;
const VERSION = 1;
const KEY_ID_BYTES = 4;
const PREFIX_BYTES = 7;
const IV_BYTES = 12;
const DATA_KEY_BYTES = 32;
const TAG_BYTES = 16;
/** The header bytes that are additional data of the wrapped key. */
const BOUND_BYTES = MAGIC.length + 1 + KEY_ID_BYTES + PREFIX_BYTES;
export const SEALED_HEADER_BYTES = BOUND_BYTES + IV_BYTES + DATA_KEY_BYTES + TAG_BYTES;
/** Plaintext bytes per chunk. */
export const SEALED_CHUNK_BYTES = 64 * 1024;
const SEALED_CHUNK = SEALED_CHUNK_BYTES + TAG_BYTES;
const MAX_CHUNKS = 2 ** 32;

/** Why a sealed object cannot be opened: tampered, truncated, or not sealed for this key and purpose. */
export class SealedObjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedObjectError';
  }
}

export interface ObjectCipher {
  /** The sealed bytes of `plaintext` for the object stored under `objectKey`, as they are produced. */
  seal(plaintext: AsyncIterable<unknown>, objectKey: string): AsyncGenerator<Buffer>;
  /**
   * Checks the header of a sealed object (`sealed` starts at its first byte) before anything is returned, so
   * a wrong key or a damaged header is an error up front; then answers its plaintext as it is verified.
   */
  open(sealed: AsyncIterable<unknown>, objectKey: string): Promise<AsyncGenerator<Buffer>>;
}

/** A cipher for one purpose (e.g. "documents"): objects sealed for one purpose do not open for another. */
export function createObjectCipher(masterKey: Buffer, purpose: string): ObjectCipher {
  const wrapKey = deriveKey(masterKey, `objectstore.${purpose}`);
  const keyId = masterKeyId(masterKey);
  return {
    async *seal(plaintext, objectKey) {
      const dataKey = randomBytes(DATA_KEY_BYTES);
      const bound = Buffer.concat([MAGIC, Buffer.from([VERSION]), keyId, randomBytes(PREFIX_BYTES)]);
      const iv = randomBytes(IV_BYTES);
      const wrap = createCipheriv('aes-256-gcm', wrapKey, iv).setAAD(additionalData(bound, objectKey));
      const wrapped = Buffer.concat([wrap.update(dataKey), wrap.final()]);
      yield Buffer.concat([bound, iv, wrapped, wrap.getAuthTag()]);
      yield* chunks(new ChunkReader(plaintext), SEALED_CHUNK_BYTES, sealChunk(dataKey), nonceOf(bound));
    },

    async open(sealed, objectKey) {
      const reader = new ChunkReader(sealed);
      try {
        const header = await reader.read(SEALED_HEADER_BYTES);
        const dataKey = unwrap(header, objectKey, wrapKey, keyId);
        return chunks(reader, SEALED_CHUNK, openChunk(dataKey), nonceOf(header));
      } catch (err) {
        await reader.close();
        throw err;
      }
    },
  };
}

/** Whether bytes at the start of an object are a sealed object's (false for anything stored in the clear). */
export function isSealed(head: Buffer): boolean {
  return head.length >= MAGIC.length && head.subarray(0, MAGIC.length).equals(MAGIC);
}

/** Bytes stored for `plainSize` bytes of content. */
export function sealedSize(plainSize: number): number {
  return SEALED_HEADER_BYTES + plainSize + Math.max(1, Math.ceil(plainSize / SEALED_CHUNK_BYTES)) * TAG_BYTES;
}

/** Content bytes of a sealed object of `size` bytes (the inverse of sealedSize; chunk sizes are fixed). */
export function plainSize(size: number): number {
  const body = size - SEALED_HEADER_BYTES;
  const count = Math.ceil(body / SEALED_CHUNK);
  if (body < TAG_BYTES || body - (count - 1) * SEALED_CHUNK < TAG_BYTES)
    throw new SealedObjectError('sealed object is truncated');
  return body - count * TAG_BYTES;
}

/**
 * Reads `size`-byte chunks and transforms each with its nonce. A chunk is the last when it is short or
 * nothing follows it, which is why a cut at a chunk boundary cannot pass for the end.
 */
async function* chunks(
  reader: ChunkReader,
  size: number,
  transform: ChunkTransform,
  nonce: (counter: number, final: boolean) => Buffer,
): AsyncGenerator<Buffer> {
  try {
    for (let counter = 0; ; counter++) {
      if (counter >= MAX_CHUNKS) throw new SealedObjectError('object is too large to seal');
      const chunk = await reader.read(size);
      const final = chunk.length < size || !(await reader.more());
      yield* transform(chunk, nonce(counter, final));
      if (final) return;
    }
  } finally {
    await reader.close();
  }
}

function unwrap(header: Buffer, objectKey: string, wrapKey: Buffer, keyId: Buffer): Buffer {
  if (header.length < SEALED_HEADER_BYTES || !isSealed(header))
    throw new SealedObjectError('not a sealed object');
  if (header[MAGIC.length] !== VERSION) throw new SealedObjectError('unknown sealed object version');
  if (!header.subarray(MAGIC.length + 1, MAGIC.length + 1 + KEY_ID_BYTES).equals(keyId))
    throw new SealedObjectError('object was encrypted under another ELIGO_ENCRYPTION_KEY');
  const bound = header.subarray(0, BOUND_BYTES);
  const iv = header.subarray(BOUND_BYTES, BOUND_BYTES + IV_BYTES);
  const wrapped = header.subarray(BOUND_BYTES + IV_BYTES, BOUND_BYTES + IV_BYTES + DATA_KEY_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', wrapKey, iv).setAAD(additionalData(bound, objectKey));
  decipher.setAuthTag(header.subarray(SEALED_HEADER_BYTES - TAG_BYTES, SEALED_HEADER_BYTES));
  try {
    return Buffer.concat([decipher.update(wrapped), decipher.final()]);
  } catch {
    throw new SealedObjectError('sealed object header failed authentication (tampered, or another purpose)');
  }
}

/**
 * A chunk's output as the pieces the cipher gave, never joined: the reader of a sealed stream copies them on
 * anyway (into the store's parts), and joining them was one more copy of every byte (megabytes of garbage per
 * document).
 */
type ChunkTransform = (chunk: Buffer, nonce: Buffer) => Buffer[];

const sealChunk =
  (dataKey: Buffer): ChunkTransform =>
  (chunk, nonce) => {
    const cipher = createCipheriv('aes-256-gcm', dataKey, nonce);
    const sealed = cipher.update(chunk);
    // GCM is a stream mode: final() gives no bytes, only the tag.
    const rest = cipher.final();
    return rest.length > 0 ? [sealed, rest, cipher.getAuthTag()] : [sealed, cipher.getAuthTag()];
  };

const openChunk =
  (dataKey: Buffer): ChunkTransform =>
  (chunk, nonce) => {
    if (chunk.length < TAG_BYTES) throw new SealedObjectError('sealed object is truncated');
    const decipher = createDecipheriv('aes-256-gcm', dataKey, nonce);
    decipher.setAuthTag(chunk.subarray(chunk.length - TAG_BYTES));
    const plain = decipher.update(chunk.subarray(0, chunk.length - TAG_BYTES));
    try {
      // final() checks the tag: nothing of a chunk leaves before it passed.
      const rest = decipher.final();
      return rest.length > 0 ? [plain, rest] : [plain];
    } catch {
      throw new SealedObjectError('sealed object failed authentication (tampered or truncated)');
    }
  };

const additionalData = (bound: Buffer, objectKey: string): Buffer =>
  Buffer.concat([bound, Buffer.from(objectKey, 'utf8')]);

/** Chunk nonces of the object whose header (or its first BOUND_BYTES) this is. */
function nonceOf(header: Buffer): (counter: number, final: boolean) => Buffer {
  const prefix = header.subarray(BOUND_BYTES - PREFIX_BYTES, BOUND_BYTES);
  return (counter, final) => {
    const nonce = Buffer.alloc(IV_BYTES);
    prefix.copy(nonce, 0);
    nonce.writeUInt32BE(counter, PREFIX_BYTES);
    nonce[IV_BYTES - 1] = final ? 1 : 0;
    return nonce;
  };
}
