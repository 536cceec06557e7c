import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * Ids and tokens of the documents service. Uploads, documents and reviews are named by random UUIDs (they
 * appear in object keys and the admin API, and were UUIDs from the start); upload tokens are bearer secrets
 * in the gateway's upload URLs. Shapes are checked before any lookup: a malformed value names nothing, so it
 * is answered like an unknown one without touching the database.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isUuid = (value: string): boolean => UUID.test(value);

export const newUploadId = (): string => randomUUID();
export const newDocumentId = (): string => randomUUID();
export const newReviewId = (): string => randomUUID();

// 32 bytes from the CSPRNG as base64url: unguessable, and safe as a URL path segment.
const TOKEN_BYTES = 32;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** A fresh upload token and the hash that is stored in its place (the token itself never is). */
export function newUploadToken(): { token: string; hash: Buffer } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashUploadToken(token) };
}

export function hashUploadToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A string that cannot be a token is not looked up at all. */
export const isUploadTokenShaped = (value: string): boolean => TOKEN_FORMAT.test(value);
