import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { invalidRequest } from '../errors';
import type { IdempotencyStore, StoredAnswer } from './store';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Visible ASCII, as HTTP header values allow without escaping; UUIDs are the usual choice. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);
/** No request runs this long (deadlines end them well before): renewal stops here whatever happens. */
const MAX_RENEWAL_MS = 30 * 60_000;
/** Answers larger than this are not kept (none of REST v2's POST answers comes near it). */
const MAX_STORED_BYTES = 1 << 20;

/**
 * Stripe's Idempotency-Key on a POST: the first request with a key runs and its answer (status and body) is
 * kept 24 h; a retry with the same key and the same request gets that answer again (`Idempotent-Replayed:
 * true`) without running anything; the same key with another method, path or body is 422; a retry while the
 * first still runs is 409 (Retry-After: 1). A 5xx is not kept, so a retry after an outage runs again. Keys
 * belong to the caller's credential: another token's key of the same value is another key.
 *
 * Mounted after the route's body parser, since the body is part of the request compared (multipart uploads
 * stream their body after this point and are compared by method, path and content type only).
 */
export function idempotency(store: IdempotencyStore, logger: Logger, lockMs: number): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (req.method !== 'POST' || key === undefined) return next();
    // Through the route's own error handling: the step endpoints answer their step error, the others ER.
    if (!KEY.test(key))
      return next(invalidRequest('header Idempotency-Key must be 1 to 255 visible ASCII characters'));
    const scope = idempotencyScope(req);
    void (async () => {
      const claim = await store.claim(scope, key, fingerprint(req));
      switch (claim.kind) {
        case 'replay':
          return replay(res, claim.answer);
        case 'mismatch':
          return void res.status(422).json({
            errorIds: ['idempotencyKeyReused'],
            systemErrorMessage:
              'This Idempotency-Key was used with another request (method, path or body); use a new key',
          });
        case 'inProgress':
          return void res
            .status(409)
            .set('Retry-After', '1')
            .json({
              errorIds: ['idempotencyKeyInUse'],
              systemErrorMessage: 'A request with this Idempotency-Key is still running; retry shortly',
            });
        case 'run': {
          // A long request (a large upload) keeps its key until its handler ends, even when its client went
          // away; a gateway that dies stops renewing it. Bounded, in case a handler never ends.
          const renewUntil = Date.now() + MAX_RENEWAL_MS;
          const renew = setInterval(
            () => {
              if (Date.now() > renewUntil) return clearInterval(renew);
              store
                .extend(scope, key)
                .catch((err: unknown) => logger.warn({ err }, 'idempotency lock not renewed'));
            },
            Math.max(1000, Math.floor(lockMs / 3)),
          );
          renew.unref();
          captureAnswer(res, (answer) => {
            clearInterval(renew);
            const settle =
              answer && answer.status < 500 ? store.complete(scope, key, answer) : store.release(scope, key);
            settle.catch((err: unknown) => logger.error({ err }, 'idempotency record not settled'));
          });
          return next();
        }
      }
    })().catch(next);
  };
}

/** The caller's credential, hashed: keys are per token, and the token itself is never stored. */
export function idempotencyScope(req: Request): Buffer {
  return createHash('sha256')
    .update(req.get('authorization') ?? '')
    .digest();
}

/** Method, path, content type and body: what a key stands for. */
export function fingerprint(req: Request): Buffer {
  const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return createHash('sha256')
    .update(`${req.method} ${req.baseUrl}${req.path}\n${type}\n`)
    .update(type.startsWith('multipart/') ? '' : stableJson(req.body))
    .digest();
}

/** JSON with object keys sorted, so that a client re-serialising the same body in another order still matches. */
function stableJson(value: unknown): string {
  if (value === undefined) return '';
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function replay(res: Response, answer: StoredAnswer): void {
  res.status(answer.status).set('Idempotent-Replayed', 'true');
  if (answer.contentType) res.set('Content-Type', answer.contentType);
  res.end(answer.body);
}

/**
 * Collects what the handler writes and reports it once the handler ends the answer (undefined when it was too
 * large to keep). A client that went away meanwhile changes nothing: the handler still ends its answer, and
 * that lost answer is exactly what the retry comes for; a handler that never ends leaves the key locked until
 * the lock runs out.
 */
function captureAnswer(res: Response, done: (answer: StoredAnswer | undefined) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (answer: StoredAnswer | undefined) => {
    if (settled) return;
    settled = true;
    done(answer);
  };
  const add = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    size += buf.length;
    if (size <= MAX_STORED_BYTES) chunks.push(buf);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((...args: unknown[]) => {
    add(args[0], args[1]);
    return write(...args);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    add(args[0], args[1]);
    settle(
      size <= MAX_STORED_BYTES
        ? {
            status: res.statusCode,
            contentType: String(res.getHeader('content-type') ?? ''),
            body: Buffer.concat(chunks),
          }
        : undefined,
    );
    return end(...args);
  }) as Response['end'];
}

/**
 * The request id a call passes on to the service (which answers a repeated id with its first answer): the
 * same for a retry of the same request under the same Idempotency-Key and credential, so that a retry whose
 * first run's answer was never kept (a gateway that died) still creates nothing twice. It covers the whole
 * request, so a key alone, guessed or reused, leads to no one else's verification.
 */
export function derivedRequestId(req: Request): string | undefined {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (req.method !== 'POST' || key === undefined || !KEY.test(key)) return undefined;
  return createHash('sha256')
    .update(idempotencyScope(req))
    .update(`\n${key}\n`)
    .update(fingerprint(req))
    .digest('hex');
}

/** Routers take the idempotency step as an option; route tests that need none get this pass-through. */
export const passThrough: RequestHandler = (_req, _res, next) => next();
