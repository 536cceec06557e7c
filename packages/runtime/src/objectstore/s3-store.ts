import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { invalidArgument, notFound } from '../errors/domain-error';
import { readParts, type ObjectBody } from './byte-parts';
import { PartBuffers } from './part-buffers';
import {
  DEFAULT_CONTENT_TYPE,
  isObjectNotFound,
  type ListedObject,
  type ObjectStat,
  type ObjectStore,
  type PresignOptions,
  type PutOptions,
  type PutResult,
} from './object-store';
import { parseS3Endpoint } from './s3-endpoint';
import {
  assertDeclaredSize,
  assertPresignExpiry,
  assertValidKey,
  assertValidPrefix,
  normalizeContentType,
  sizeMismatch,
} from './validation';

export interface S3ObjectStoreConfig {
  /** scheme://host[:port], e.g. http://127.0.0.1:9000 or https://s3.eu-west-1.amazonaws.com */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** Defaults to us-east-1. Always set on the client, so it never asks the server for a bucket's region. */
  region?: string;
  /** Path-style URLs (host/bucket/key) work with every S3-compatible server; default true. */
  pathStyle?: boolean;
  /**
   * Where presigned URLs point, when clients reach the store under another address than this process does
   * (e.g. an in-cluster service name vs a public host). The signature covers the host, so it must be the one
   * clients use. Defaults to `endpoint`.
   */
  presignEndpoint?: string;
  /** Bytes held in memory per uploaded part (S3 allows 5 MiB to 5 GiB); default 8 MiB. */
  partSizeBytes?: number;
  /** Signing time for presigned URLs; injectable so tests can mint already-expired URLs. */
  clock?: () => Date;
}

const MIN_PART = 5 * 1024 * 1024;
const MAX_PART = 5 * 1024 * 1024 * 1024;
const MAX_PARTS = 10_000;
const MIB = 1024 * 1024;
const IDLE_SOCKET_MS = 4000;
/** Life of the URL a part is sent to: it is used at once. */
const SEND_URL_SECONDS = 900;
/** A part of a few MiB whose connection stays idle this long is given up on (the put fails and is aborted). */
const SEND_TIMEOUT_MS = 120_000;

function assertPartSize(bytes: number): void {
  if (!Number.isSafeInteger(bytes) || bytes < MIN_PART || bytes > MAX_PART) {
    throw new Error('S3 part size must be between 5 MiB and 5 GiB');
  }
}

/**
 * ObjectStore over any S3-compatible server through the minio client, using only plain S3 calls (no MinIO
 * admin APIs: the MinIO community server is archived upstream and production may run something else).
 */
export class S3ObjectStore implements ObjectStore {
  private readonly client: Client;
  private readonly presigner: Client;
  private readonly bucket: string;
  private readonly region: string;
  private readonly partSize: number;
  private readonly clock: () => Date;
  /** The parts' buffers, reused from one put to the next (part-buffers.ts). */
  readonly partBuffers = new PartBuffers();
  /**
   * Kept-alive connections for our own PUTs (minio's client keeps its own for everything else); one left idle
   * for 4 s is closed, before a server's own idle timeout could cut it under a new request.
   */
  private readonly agents = {
    http: new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    https: new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };

  constructor(config: S3ObjectStoreConfig) {
    this.bucket = config.bucket;
    this.region = config.region ?? 'us-east-1';
    this.partSize = config.partSizeBytes ?? 8 * MIB;
    assertPartSize(this.partSize);
    this.clock = config.clock ?? (() => new Date());
    const clientFor = (endpoint: string): Client =>
      new Client({
        ...parseS3Endpoint(endpoint),
        accessKey: config.accessKey,
        secretKey: config.secretKey,
        region: this.region,
        pathStyle: config.pathStyle ?? true,
      });
    this.client = clientFor(config.endpoint);
    this.presigner = config.presignEndpoint ? clientFor(config.presignEndpoint) : this.client;
  }

  /** Creates the bucket when it does not exist yet; safe to call from several processes at boot. */
  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (err) {
      // Another process won the race between our existence check and the create.
      if (s3Code(err) !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }

  async put(key: string, body: ObjectBody, options: PutOptions = {}): Promise<PutResult> {
    assertValidKey(key);
    assertDeclaredSize(options.size);
    const contentType = normalizeContentType(options.contentType);
    const partSize = this.partSizeFor(options.size, options.partBytes);
    const parts = readParts(body, partSize, (size) => this.partBuffers.take(size));
    try {
      const first = await parts.next();
      const firstPart = first.done ? Buffer.alloc(0) : first.value;
      // A first part shorter than a full part is the whole body: one plain PUT, no multipart bookkeeping.
      if (firstPart.length < partSize) {
        checkSize(options.size, firstPart.length, true);
        const etag = await this.send(key, firstPart, {}, contentType);
        this.partBuffers.giveBack(firstPart);
        return { etag };
      }
      return await this.putMultipart(key, contentType, firstPart, parts, options.size);
    } finally {
      // Stops reading (and destroys) the source if we bailed out early.
      await parts.return(undefined);
    }
  }

  /**
   * Our own multipart loop rather than minio's putObject for streams: minio buffers a whole unknown-size
   * stream up to ~550 MiB parts, and resumes any other in-progress upload of the same key (which corrupts
   * concurrent writers). Parts go up one at a time, so memory stays at one part.
   */
  private async putMultipart(
    key: string,
    contentType: string,
    firstPart: Buffer,
    rest: AsyncGenerator<Buffer>,
    declaredSize: number | undefined,
  ): Promise<PutResult> {
    const uploadId = await this.client.initiateNewMultipartUpload(this.bucket, key, {
      'Content-Type': contentType,
    });
    try {
      const etags: { part: number; etag: string }[] = [];
      let total = 0;
      let part: Buffer | undefined = firstPart;
      while (part !== undefined) {
        total += part.length;
        checkSize(declaredSize, total, false);
        const partNumber = etags.length + 1;
        if (partNumber > MAX_PARTS) throw invalidArgument('object is too large for the configured part size');
        const etag = await this.send(key, part, { partNumber: String(partNumber), uploadId });
        this.partBuffers.giveBack(part);
        etags.push({ part: partNumber, etag });
        const next: IteratorResult<Buffer> = await rest.next();
        part = next.done ? undefined : next.value;
      }
      checkSize(declaredSize, total, true);
      const { etag } = await this.client.completeMultipartUpload(this.bucket, key, uploadId, etags);
      return { etag };
    } catch (err) {
      // Without an abort the server keeps the uploaded parts (and bills for them) indefinitely.
      await this.client
        .abortMultipartUpload(this.bucket, key, encodeURIComponent(uploadId))
        // The failure that got us here is the one to report, not a failed cleanup.
        .catch(() => undefined);
      throw err;
    }
  }

  /**
   * PUTs one object or part through a URL this process signs for itself. minio's own PUT hashes every body
   * twice before sending it (SHA-256 for the signature over plain HTTP, and MD5), and the server then hashes
   * it again to check: tens of milliseconds of CPU per 5 MB. A presigned request signs UNSIGNED-PAYLOAD
   * instead; TCP/TLS carry the bytes, and what Eligo stores is sealed with authenticated encryption, which
   * checks every chunk when it is read. Sent with node:http rather than fetch, which copies a body it is given
   * (8 MiB per part, garbage on the thread that sends).
   */
  private async send(
    key: string,
    body: Buffer,
    query: Record<string, string>,
    contentType?: string,
  ): Promise<string> {
    // Signed now (not by the injectable clock, which is for the URLs handed out) and used at once.
    const url = await this.client.presignedUrl('PUT', this.bucket, key, SEND_URL_SECONDS, query, new Date());
    const { status, etag, text } = await putBytes(new URL(url), body, contentType, this.agents);
    if (status < 200 || status > 299) throw s3Failure(status, text);
    return etag.replace(/^"|"$/g, '');
  }

  /**
   * The caller's part size or the configured one, grown when a declared size would otherwise need more than
   * 10,000 parts.
   */
  private partSizeFor(size: number | undefined, asked: number | undefined): number {
    if (asked !== undefined) assertPartSize(asked);
    const partSize = asked ?? this.partSize;
    if (size === undefined || size <= partSize * MAX_PARTS) return partSize;
    return Math.ceil(size / MAX_PARTS / MIB) * MIB;
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      return await this.client.getObject(this.bucket, key);
    } catch (err) {
      throw mapNotFound(err);
    }
  }

  async stat(key: string): Promise<ObjectStat> {
    assertValidKey(key);
    try {
      const stat = await this.client.statObject(this.bucket, key);
      const contentType: unknown = stat.metaData['content-type'];
      return {
        size: stat.size,
        contentType: typeof contentType === 'string' ? contentType : DEFAULT_CONTENT_TYPE,
        etag: stat.etag,
        lastModified: stat.lastModified,
      };
    } catch (err) {
      throw mapNotFound(err);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.removeObject(this.bucket, key);
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
    // Recursive: every key under the prefix, not "directories". The stream pages through ListObjectsV2.
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      if (item.name !== undefined) yield { key: item.name, lastModified: item.lastModified };
    }
  }

  presignPut(key: string, options: PresignOptions): Promise<string> {
    return this.presign('PUT', key, options);
  }

  presignGet(key: string, options: PresignOptions): Promise<string> {
    return this.presign('GET', key, options);
  }

  private async presign(method: 'GET' | 'PUT', key: string, options: PresignOptions): Promise<string> {
    assertValidKey(key);
    assertPresignExpiry(options.expiresInSeconds);
    // Signing is local (the region is configured), so this makes no request to the server.
    return this.presigner.presignedUrl(method, this.bucket, key, options.expiresInSeconds, {}, this.clock());
  }
}

export function createS3ObjectStore(config: S3ObjectStoreConfig): S3ObjectStore {
  return new S3ObjectStore(config);
}

function checkSize(declared: number | undefined, actual: number, complete: boolean): void {
  if (declared === undefined) return;
  if (actual > declared || (complete && actual !== declared)) throw sizeMismatch(declared);
}

/** An S3 error answer as the minio client reports its own: an Error whose `code` is the XML's Code. */
function s3Failure(status: number, body: string): Error {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? `HTTP${status}`;
  return Object.assign(new Error(`the object store answered ${status} ${code}`), { code, status });
}

/** One PUT of `body`, whole, as given (no copy); the answer's status, ETag and (short) body. */
function putBytes(
  url: URL,
  body: Buffer,
  contentType: string | undefined,
  agents: { http: HttpAgent; https: HttpsAgent },
): Promise<{ status: number; etag: string; text: string }> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: 'PUT',
        agent: secure ? agents.https : agents.http,
        headers: {
          'content-length': String(body.length),
          ...(contentType === undefined ? {} : { 'content-type': contentType }),
        },
        timeout: SEND_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            etag: String(res.headers.etag ?? ''),
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('the object store did not answer in time')));
    req.on('error', reject);
    req.end(body);
  });
}

function s3Code(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** GET answers NoSuchKey; HEAD has no body, so the client reports NotFound. */
function mapNotFound(err: unknown): unknown {
  const code = s3Code(err);
  return code === 'NoSuchKey' || code === 'NotFound' ? notFound('object not found', { cause: err }) : err;
}
