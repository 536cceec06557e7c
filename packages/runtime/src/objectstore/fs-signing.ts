import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PresignOptions } from './object-store';
import { assertPresignExpiry, assertValidKey } from './validation';

/**
 * Presigned URLs for the filesystem store: `{base}/objects/{key}?X-Eligo-Expires=..&X-Eligo-Signature=..`,
 * where the signature is HMAC-SHA256 over the method, key and expiry. Like S3's, such a URL grants exactly
 * one method on one key until one instant, and nothing else.
 */
export type SignedMethod = 'GET' | 'PUT';

export const EXPIRES_PARAM = 'X-Eligo-Expires';
export const SIGNATURE_PARAM = 'X-Eligo-Signature';
/** The router serves objects under this path below the public base URL. */
export const OBJECTS_PATH = '/objects/';

/** A short secret would make signatures guessable offline; refuse it at boot. */
export const MIN_SECRET_LENGTH = 32;

// Domain separation: the same secret could one day sign something else; a v1 tag keeps the two apart and
// lets the format change without old URLs verifying under new rules.
const CONTEXT = 'eligo-objectstore-v1';

export function signObjectRequest(
  secret: string,
  method: SignedMethod,
  key: string,
  expiresAt: number,
): string {
  // Newline separators cannot be forged: keys, methods and integers never contain one.
  return createHmac('sha256', secret).update(`${CONTEXT}\n${method}\n${key}\n${expiresAt}`).digest('hex');
}

/** expiresAt is in Unix seconds, as in the URL. */
export function presignedObjectUrl(
  baseUrl: string,
  secret: string,
  method: SignedMethod,
  key: string,
  expiresAt: number,
): string {
  const url = new URL(baseUrl);
  const encodedKey = key.split('/').map(encodeURIComponent).join('/');
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${OBJECTS_PATH}${encodedKey}`;
  url.search = new URLSearchParams({
    [EXPIRES_PARAM]: String(expiresAt),
    [SIGNATURE_PARAM]: signObjectRequest(secret, method, key, expiresAt),
  }).toString();
  url.hash = '';
  return url.toString();
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * Checks the query parameters of a request against the method and key it asks for. Parameters arrive as
 * whatever the query parser produced (a string, an array when repeated, or nothing), hence `unknown`.
 */
export function checkObjectSignature(
  secret: string,
  method: SignedMethod,
  key: string,
  expiresParam: unknown,
  signatureParam: unknown,
  nowMs: number,
): SignatureCheck {
  if (typeof expiresParam !== 'string' || !/^\d{1,15}$/.test(expiresParam)) return 'invalid';
  if (typeof signatureParam !== 'string' || !/^[0-9a-f]{64}$/.test(signatureParam)) return 'invalid';
  const expiresAt = Number(expiresParam);
  const expected = Buffer.from(signObjectRequest(secret, method, key, expiresAt), 'hex');
  // Constant time, so response timing does not reveal how many leading bytes of a guess were right.
  if (!timingSafeEqual(expected, Buffer.from(signatureParam, 'hex'))) return 'invalid';
  return nowMs > expiresAt * 1000 ? 'expired' : 'valid';
}

/**
 * Mints and checks the URLs of a store whose presigned URLs our own HTTP server answers (the filesystem
 * store; the encrypted store): one secret, one base URL (where createSignedObjectRouter is mounted), one clock.
 */
export class ObjectUrlSigner {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly secret: string,
    private readonly clock: () => Date,
  ) {
    if (secret.length < MIN_SECRET_LENGTH)
      throw new Error(`object store signing secret must be at least ${MIN_SECRET_LENGTH} characters`);
    const base = new URL(baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new Error('object store public base URL must be http:// or https://');
    this.baseUrl = base.toString();
  }

  presign(method: SignedMethod, key: string, options: PresignOptions): string {
    assertValidKey(key);
    assertPresignExpiry(options.expiresInSeconds);
    const expiresAt = Math.floor(this.clock().getTime() / 1000) + options.expiresInSeconds;
    return presignedObjectUrl(this.baseUrl, this.secret, method, key, expiresAt);
  }

  /** Whether a request's query parameters authorise `method` on `key` now. */
  check(method: SignedMethod, key: string, expires: unknown, signature: unknown): SignatureCheck {
    return checkObjectSignature(this.secret, method, key, expires, signature, this.clock().getTime());
  }
}
