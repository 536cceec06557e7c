import { createHash, randomBytes } from 'node:crypto';

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
