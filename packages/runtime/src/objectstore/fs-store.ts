import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { toBuffer } from '../crypto/chunk-reader';
import type { ObjectBody } from './byte-parts';
import { notFound, unavailable } from '../errors/domain-error';
import { FsLayout, isNotFoundError, type FsObjectRecord } from './fs-layout';
import { ObjectUrlSigner, type SignatureCheck, type SignedMethod } from './fs-signing';
import { KeyedLock } from './keyed-lock';
import {
  isObjectNotFound,
  type ListedObject,
  type ObjectStat,
  type ObjectStore,
  type PresignOptions,
  type PutOptions,
  type PutResult,
} from './object-store';
import {
  assertDeclaredSize,
  assertValidKey,
  assertValidPrefix,
  normalizeContentType,
  sizeMismatch,
} from './validation';

export interface FsObjectStoreConfig {
  /** Directory that holds everything, e.g. ./.eligo/objects (created by ensureBucket or the first write). */
  root: string;
  /**
   * The public URL at which the HTTP server mounts createFsObjectRouter(store), e.g.
   * http://localhost:8080/storage; presigned URLs are {publicBaseUrl}/objects/{key}?...
   */
  publicBaseUrl: string;
  /** HMAC key for presigned URLs, at least 32 characters; anyone holding it can mint URLs. */
  signingSecret: string;
  /** Injectable so tests can mint already-expired URLs. */
  clock?: () => Date;
}

/** An object opened for reading: its metadata and a stream of the same version's bytes. */
export interface OpenedObject {
  stat: ObjectStat;
  body: Readable;
}

/**
 * The embedded mode's ObjectStore: objects as files under a root directory (layout in fs-layout.ts), and
 * presigned URLs served by createFsObjectRouter over the process's own HTTP server.
 */
export class FsObjectStore implements ObjectStore {
  private readonly layout: FsLayout;
  private readonly urls: ObjectUrlSigner;
  private readonly clock: () => Date;
  private readonly locks = new KeyedLock();

  constructor(config: FsObjectStoreConfig) {
    this.clock = config.clock ?? (() => new Date());
    this.urls = new ObjectUrlSigner(config.publicBaseUrl, config.signingSecret, this.clock);
    this.layout = new FsLayout(config.root);
  }

  async ensureBucket(): Promise<void> {
    await mkdir(this.layout.tmpDir, { recursive: true });
    // Fail at boot when the directory is not writable, not on the first upload.
    await access(this.layout.tmpDir, constants.W_OK);
  }

  async put(key: string, body: ObjectBody, options: PutOptions = {}): Promise<PutResult> {
    assertValidKey(key);
    assertDeclaredSize(options.size);
    const contentType = normalizeContentType(options.contentType);
    const declared = options.size;
    const md5 = createHash('md5');
    let size = 0;

    await mkdir(this.layout.tmpDir, { recursive: true });
    const tmp = this.layout.newTmpPath();
    // Opened before streaming, not lazily by createWriteStream: a source that fails at once would otherwise
    // have us remove the temp file before the pending open creates it, leaving it behind.
    const file = await open(tmp, 'wx');
    let blobPath: string | undefined;
    try {
      // Counts and hashes on the way to disk, one chunk at a time: each is written before the next is
      // pulled (the contract of ObjectStore.put), and the put fails as soon as the body outgrows its size.
      try {
        for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
          const bytes = toBuffer(chunk);
          size += bytes.length;
          if (declared !== undefined && size > declared) throw sizeMismatch(declared);
          md5.update(bytes);
          await writeAll(file, bytes);
        }
      } finally {
        await file.close();
      }
      if (declared !== undefined && size !== declared) throw sizeMismatch(declared);

      const record: FsObjectRecord = {
        version: 1,
        key,
        size,
        contentType,
        // MD5 hex, as S3 reports for single-part uploads.
        etag: md5.digest('hex'),
        lastModified: this.clock().toISOString(),
        blob: this.layout.newBlobName(key),
      };
      await mkdir(this.layout.dirOf(key), { recursive: true });
      blobPath = this.layout.blobPath(key, record.blob);
      await rename(tmp, blobPath);
      await this.locks.run(key, async () => {
        const previous = await this.layout.readRecord(key);
        await this.layout.writeRecord(record);
        blobPath = undefined; // committed: from here on the blob belongs to the record
        if (previous) await rm(this.layout.blobPath(key, previous.blob), { force: true });
      });
      return { etag: record.etag };
    } catch (err) {
      await rm(tmp, { force: true });
      if (blobPath) await rm(blobPath, { force: true });
      throw err;
    }
  }

  /**
   * Opens the current version. The blob is opened before its stream is returned, so a concurrent overwrite
   * or delete (which unlinks the old blob) cannot cut a read short: the open descriptor keeps the bytes.
   */
  async open(key: string): Promise<OpenedObject> {
    assertValidKey(key);
    // A put or delete may remove the blob between reading the record and opening it; the record read
    // again then names the newer blob (or nothing).
    for (let attempt = 0; attempt < 5; attempt++) {
      const record = await this.layout.readRecord(key);
      if (!record) throw notFound('object not found');
      try {
        const handle = await open(this.layout.blobPath(key, record.blob), 'r');
        return { stat: toStat(record), body: handle.createReadStream() };
      } catch (err) {
        if (!isNotFoundError(err)) throw err;
      }
    }
    throw unavailable('object is being rewritten too often to read');
  }

  async get(key: string): Promise<Readable> {
    return (await this.open(key)).body;
  }

  async stat(key: string): Promise<ObjectStat> {
    assertValidKey(key);
    const record = await this.layout.readRecord(key);
    if (!record) throw notFound('object not found');
    return toStat(record);
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.locks.run(key, async () => {
      const record = await this.layout.readRecord(key);
      if (!record) return;
      // Record first: once it is gone the object is gone, even if removing the blob fails below.
      await rm(this.layout.recordPath(key), { force: true });
      await rm(this.layout.blobPath(key, record.blob), { force: true });
    });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.stat(key);
      return true;
    } catch (err) {
      if (isObjectNotFound(err)) return false;
      throw err;
    }
  }

  async *list(prefix: string): AsyncGenerator<ListedObject> {
    assertValidPrefix(prefix);
    for await (const record of this.layout.records())
      if (record.key.startsWith(prefix))
        yield { key: record.key, lastModified: new Date(record.lastModified) };
  }

  async presignPut(key: string, options: PresignOptions): Promise<string> {
    return this.urls.presign('PUT', key, options);
  }

  async presignGet(key: string, options: PresignOptions): Promise<string> {
    return this.urls.presign('GET', key, options);
  }

  /** For the router: whether a request's query parameters authorise `method` on `key` now. */
  checkSignature(method: SignedMethod, key: string, expires: unknown, signature: unknown): SignatureCheck {
    return this.urls.check(method, key, expires, signature);
  }
}

export function createFsObjectStore(config: FsObjectStoreConfig): FsObjectStore {
  return new FsObjectStore(config);
}

function toStat(record: FsObjectRecord): ObjectStat {
  return {
    size: record.size,
    contentType: record.contentType,
    etag: record.etag,
    lastModified: new Date(record.lastModified),
  };
}

/** FileHandle.write may write less than asked; the rest follows. */
async function writeAll(file: FileHandle, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length;) at += (await file.write(bytes, at)).bytesWritten;
}
