import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { isDomainError } from '../errors/domain-error';
import type { FsObjectStore, OpenedObject } from './fs-store';
import {
  EXPIRES_PARAM,
  OBJECTS_PATH,
  SIGNATURE_PARAM,
  type SignatureCheck,
  type SignedMethod,
} from './fs-signing';
import type { PutOptions, PutResult } from './object-store';
import { keyProblem } from './validation';

/** A store whose presigned URLs our own HTTP server answers: the filesystem store, the encrypted store. */
export interface SignedObjectHost {
  checkSignature(method: SignedMethod, key: string, expires: unknown, signature: unknown): SignatureCheck;
  /** The object's metadata and a stream of the same version's bytes, as served. */
  open(key: string): Promise<OpenedObject>;
  put(key: string, body: Readable, options: PutOptions): Promise<PutResult>;
}

export interface FsObjectRouterOptions {
  /** Largest body a presigned PUT may upload; larger ones get 413. Unlimited when absent. */
  maxUploadBytes?: number;
  /** Failures that are not the client's fault are logged here once (the client sees a generic 500). */
  logger?: Logger;
}

/**
 * Serves a store's presigned URLs: mount it at the path of the store's publicBaseUrl
 * (e.g. app.use('/storage', createSignedObjectRouter(store)) for http://host/storage). Bodies are streamed to
 * and from the store. Error bodies use the gateway's SEM shape, {systemErrorMessage}.
 */
export function createSignedObjectRouter(
  store: SignedObjectHost,
  options: FsObjectRouterOptions = {},
): Router {
  const router = Router();
  const route = `${OBJECTS_PATH}*key`;

  router.get(route, async (req, res) => {
    const key = authorise(store, 'GET', req, res);
    if (key === undefined) return;
    const { stat, body } = await store.open(key);
    res.status(200).set({
      'Content-Type': stat.contentType,
      'Content-Length': String(stat.size),
      ETag: `"${stat.etag}"`,
      'Last-Modified': stat.lastModified.toUTCString(),
      // Documents hold personal data: no shared cache may keep them.
      'Cache-Control': 'private',
      // The bytes are uploaded by end users and served from the API's own origin: never let a browser run
      // them (an uploaded text/html would otherwise be script on our origin).
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    if (req.method === 'HEAD') {
      body.destroy();
      res.end();
      return;
    }
    // A client that disconnects mid-download rejects this; nothing is left to answer, so it is not an error.
    await pipeline(body, res).catch(() => undefined);
  });

  router.put(route, async (req, res) => {
    const key = authorise(store, 'PUT', req, res);
    if (key === undefined) return;
    const declared = contentLength(req);
    const limit = options.maxUploadBytes;
    if (limit !== undefined && declared !== undefined && declared > limit) {
      // Refuse before reading a byte; close the connection rather than drain a body we will not store.
      res.set('Connection', 'close');
      return fail(res, 413, `Upload exceeds the limit of ${limit} bytes`);
    }
    const contentType = req.headers['content-type'];
    const { etag } = await store.put(key, limitedBody(req, limit), { contentType, size: declared });
    res.status(200).set('ETag', `"${etag}"`).end();
  });

  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    // A failed upload may leave body bytes unread; do not keep a connection in that state alive.
    if (req.method === 'PUT') res.set('Connection', 'close');
    if (err instanceof UploadTooLarge) return fail(res, 413, err.message);
    if (err instanceof UploadAborted) return fail(res, 400, err.message);
    if (isDomainError(err) && err.kind === 'invalidArgument') return fail(res, 400, err.message);
    if (isDomainError(err) && err.kind === 'notFound') return fail(res, 404, 'The object does not exist');
    options.logger?.error({ err }, 'object store request failed');
    return fail(res, 500, 'Internal server error');
  });
  return router;
}

/** The filesystem store's router (createSignedObjectRouter under the name it has always had). */
export const createFsObjectRouter: (store: FsObjectStore, options?: FsObjectRouterOptions) => Router =
  createSignedObjectRouter;

/** The key the URL names if its signature grants `method` on it now; otherwise answers the request. */
function authorise(
  store: SignedObjectHost,
  method: SignedMethod,
  req: Request,
  res: Response,
): string | undefined {
  const segments: unknown = (req.params as Record<string, unknown>)['key'];
  const key = Array.isArray(segments) ? segments.join('/') : undefined;
  if (key === undefined || keyProblem(key) !== undefined) {
    fail(res, 400, 'Invalid object key');
    return undefined;
  }
  const check = store.checkSignature(method, key, req.query[EXPIRES_PARAM], req.query[SIGNATURE_PARAM]);
  if (check === 'valid') return key;
  fail(res, 403, check === 'expired' ? 'Request has expired' : 'Signature does not match');
  return undefined;
}

function fail(res: Response, status: number, systemErrorMessage: string): void {
  res.status(status).json({ systemErrorMessage });
}

function contentLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
}

class UploadTooLarge extends Error {}
/** The client went away mid-upload: nothing to answer, and not a server failure worth logging. */
class UploadAborted extends Error {}

/**
 * The request body as a stream that fails once it passes `limit` bytes (chunked uploads declare no length).
 * A separate stream, not the request itself, goes to the store: when the store gives up on its input it
 * destroys it, and destroying the request would drop the connection before we could answer.
 */
function limitedBody(req: IncomingMessage, limit: number | undefined): Transform {
  let seen = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (limit !== undefined && seen > limit)
        return done(new UploadTooLarge(`Upload exceeds the limit of ${limit} bytes`));
      done(null, chunk);
    },
  });
  // pipe() does not forward errors: without this a client that disconnects mid-upload would leave the store
  // waiting for the rest of the body forever.
  req.once('error', () => body.destroy(new UploadAborted('Upload aborted by the client')));
  req.once('close', () => {
    if (!req.readableEnded) body.destroy(new UploadAborted('Upload aborted by the client'));
  });
  // The store's pipeline hears errors through its own listener; this one only keeps the error of a body that
  // nobody consumes any more (the store refused the request first) from crashing the process.
  body.on('error', () => undefined);
  req.pipe(body);
  return body;
}
