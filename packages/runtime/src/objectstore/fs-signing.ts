import { createHmac, timingSafeEqual } from 'node:crypto';

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
