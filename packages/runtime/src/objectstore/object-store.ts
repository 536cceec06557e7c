import type { Readable } from 'node:stream';
import type { ObjectBody } from './byte-parts';
import { isDomainError } from '../errors/domain-error';

/**
 * Where services keep uploaded documents and generated reports
 * (docs/architecture.md, "Configuration and embedded defaults"): S3 in production, the filesystem in the
 * embedded all-in-one mode. Both adapters pass one contract suite, so code that works against one works
 * against the other.
 *
 * Keys are validated identically by both adapters (see validation.ts); an invalid key is an invalidArgument
 * DomainError. A missing object is a notFound DomainError.
 */
export interface ObjectStore {
  /**
   * Creates the store's container when missing (the S3 bucket, the filesystem root) and fails when it cannot,
   * so a misconfigured store stops the process at boot rather than on the first upload. Idempotent.
   */
  ensureBucket(): Promise<void>;
  /**
   * Stores an object, replacing any previous one under the key. A stream is consumed as it arrives (memory is
   * bounded by one upload part, never the whole object). When `size` is given and the body's length differs,
   * the put fails and the previous object, if any, is left untouched. The S3 and filesystem stores pull an
   * async iterable one chunk at a time and finish with each chunk (write it, upload it, or copy it into a
   * part) before they pull the next, so its producer may reuse a chunk's memory once asked for the next; a
   * Readable buffers ahead of its consumer, and the encrypted store gathers blocks across chunks, so this
   * holds for neither.
   */
  put(key: string, body: ObjectBody, options?: PutOptions): Promise<PutResult>;
  /** The object's bytes as a stream. Rejects with notFound before any byte is read when the key is absent. */
  get(key: string): Promise<Readable>;
  stat(key: string): Promise<ObjectStat>;
  /** Succeeds whether or not the object exists (as S3 DELETE does). */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /**
   * A URL that lets its holder PUT the object's bytes with plain HTTP, without credentials, until it expires.
   * The uploader's Content-Type header becomes the object's content type.
   */
  presignPut(key: string, options: PresignOptions): Promise<string>;
  /** A URL that lets its holder GET the object until it expires. */
  presignGet(key: string, options: PresignOptions): Promise<string>;
  /**
   * Every object whose key starts with `prefix` (a plain string prefix, as in S3; "" for all), in no
   * particular order, read lazily page by page. For sweeps that look for objects nothing refers to any more.
   */
  list(prefix: string): AsyncIterable<ListedObject>;
}

export interface ListedObject {
  key: string;
  /** When the current version was written (an upload in progress is not listed until it completes). */
  lastModified: Date;
}

export interface PutOptions {
  /** Defaults to application/octet-stream. */
  contentType?: string;
  /** The body's length when known (e.g. from Content-Length); checked against what is actually read. */
  size?: number;
  /**
   * The size of the parts a store that uploads in parts sends (S3: 5 MiB to 5 GiB), instead of its configured
   * one; ignored by a store that writes whole files. A producer of chunks of exactly this size (the report
   * worker's parts) then has each sent as it is, without a copy into a part buffer of the store's own.
   */
  partBytes?: number;
}

export interface PutResult {
  etag: string;
}

export interface ObjectStat {
  size: number;
  contentType: string;
  /** Opaque; changes whenever the content changes. */
  etag: string;
  lastModified: Date;
}

export interface PresignOptions {
  /** Whole seconds, 1 to 604800 (7 days, the S3 limit; applied to both adapters so they behave alike). */
  expiresInSeconds: number;
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
export const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

/** True for the error every adapter throws when a key has no object (a notFound DomainError). */
export function isObjectNotFound(err: unknown): boolean {
  return isDomainError(err) && err.kind === 'notFound';
}
