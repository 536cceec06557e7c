import { Readable } from 'node:stream';
import type { ObjectBody } from './byte-parts';
import { ChunkReader, toBuffer } from '../crypto/chunk-reader';
import { deriveKey } from '../crypto/field-cipher';
import {
  createObjectCipher,
  isSealed,
  plainSize,
  SEALED_MAGIC_BYTES,
  sealedSize,
  type ObjectCipher,
} from '../crypto/object-cipher';
import { ObjectUrlSigner, type SignatureCheck, type SignedMethod } from './fs-signing';
import type { OpenedObject } from './fs-store';
import type {
  ListedObject,
  ObjectStat,
  ObjectStore,
  PresignOptions,
  PutOptions,
  PutResult,
} from './object-store';
import { assertDeclaredSize, assertValidKey, normalizeContentType, sizeMismatch } from './validation';

export interface EncryptedObjectStoreConfig {
  /** Where the sealed bytes rest: the S3 store, or the filesystem store. */
  inner: ObjectStore;
  /** ELIGO_ENCRYPTION_KEY (ModuleDeps.encryptionKey). */
  masterKey: Buffer;
  /** The service's name for its objects (e.g. "documents"): its own derived key, its own URL secret. */
  purpose: string;
  /**
   * Where createSignedObjectRouter(store) is mounted, e.g. http://host/review-files: presigned URLs point there,
   * since only our own code can decrypt. Without it the store mints no URLs.
   */
  publicBaseUrl?: string;
  /** Injectable so tests can mint already-expired URLs. */
  clock?: () => Date;
}

/**
 * An ObjectStore that encrypts every object before it reaches the inner store and decrypts it on the way out
 * (format in crypto/object-cipher.ts), so the bucket or directory never holds the content in the clear;
 * the same code works over S3 and the filesystem. Sizes are the content's (the sealed size is a function of
 * it). Objects stored in the clear before (no sealed header) are still read as they are.
 *
 * Keys, listings and deletes pass through unchanged. Presigned URLs cannot point at the inner store (its
 * bytes are ciphertext): they name our own router, signed with a secret derived from the master key, so any
 * replica holding the key can answer them.
 */
export class EncryptedObjectStore implements ObjectStore {
  private readonly inner: ObjectStore;
  private readonly cipher: ObjectCipher;
  private readonly urls: ObjectUrlSigner | undefined;

  constructor(config: EncryptedObjectStoreConfig) {
    this.inner = config.inner;
    this.cipher = createObjectCipher(config.masterKey, config.purpose);
    const secret = deriveKey(config.masterKey, `objectstore.${config.purpose}.urls`).toString('hex');
    this.urls =
      config.publicBaseUrl === undefined
        ? undefined
        : new ObjectUrlSigner(config.publicBaseUrl, secret, config.clock ?? (() => new Date()));
  }

  ensureBucket(): Promise<void> {
    return this.inner.ensureBucket();
  }

  async put(key: string, body: ObjectBody, options: PutOptions = {}): Promise<PutResult> {
    // Checked here too: the inner store sees only the sealed stream, and must refuse before any is read.
    assertValidKey(key);
    assertDeclaredSize(options.size);
    normalizeContentType(options.contentType);
    const source = Buffer.isBuffer(body) ? [body] : body;
    const sealed = Readable.from(this.cipher.seal(declaredLength(source, options.size), key));
    return this.inner.put(key, sealed, {
      contentType: options.contentType,
      // Tells the S3 store the part size it needs; the content's own length is checked on the way in.
      size: options.size === undefined ? undefined : sealedSize(options.size),
    });
  }

  async get(key: string): Promise<Readable> {
    return (await this.open(key)).body;
  }

  /**
   * The content's size and type and its bytes, decrypted chunk by chunk as they are read. A sealed header
   * that does not verify (another key, tampering) fails here, before anything is returned.
   */
  async open(key: string): Promise<OpenedObject> {
    assertValidKey(key);
    // Two requests on S3: objects are written once per key here, so both see the same version.
    const stat = await this.inner.stat(key);
    const raw = await this.inner.get(key);
    try {
      const reader = new ChunkReader(raw);
      const sealed = isSealed(await reader.peek(SEALED_MAGIC_BYTES));
      const body = Readable.from(sealed ? await this.cipher.open(reader, key) : reader);
      // A body destroyed before it was read never starts its generator: close the store's stream anyway.
      body.once('close', () => raw.destroy());
      return { stat: sealed ? { ...stat, size: plainSize(stat.size) } : stat, body };
    } catch (err) {
      raw.destroy();
      throw err;
    }
  }

  async stat(key: string): Promise<ObjectStat> {
    // Whether the object is sealed, and so its content's size, is in its first bytes.
    const { stat, body } = await this.open(key);
    body.destroy();
    return stat;
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }

  exists(key: string): Promise<boolean> {
    return this.inner.exists(key);
  }

  list(prefix: string): AsyncIterable<ListedObject> {
    return this.inner.list(prefix);
  }

  async presignPut(key: string, options: PresignOptions): Promise<string> {
    return this.signer().presign('PUT', key, options);
  }

  async presignGet(key: string, options: PresignOptions): Promise<string> {
    return this.signer().presign('GET', key, options);
  }

  /** For the router: whether a request's query parameters authorise `method` on `key` now. */
  checkSignature(method: SignedMethod, key: string, expires: unknown, signature: unknown): SignatureCheck {
    return this.signer().check(method, key, expires, signature);
  }

  private signer(): ObjectUrlSigner {
    if (!this.urls) throw new Error('this encrypted object store has no public base URL to sign URLs for');
    return this.urls;
  }
}

export function createEncryptedObjectStore(config: EncryptedObjectStoreConfig): EncryptedObjectStore {
  return new EncryptedObjectStore(config);
}

/** The body's bytes, failing as soon as they exceed the declared length, or at the end when short. */
async function* declaredLength(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  declared?: number,
): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const chunk of source) {
    const bytes = toBuffer(chunk);
    seen += bytes.length;
    if (declared !== undefined && seen > declared) throw sizeMismatch(declared);
    yield bytes;
  }
  if (declared !== undefined && seen !== declared) throw sizeMismatch(declared);
}
