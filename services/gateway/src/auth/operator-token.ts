import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time check of a presented token against the operator token. Hashes are compared so that the
 * lengths are equal and the comparison time says nothing about the token's length or prefix.
 */
export function operatorTokenMatcher(operatorToken: string): (token: string) => boolean {
  const expected = sha256(operatorToken);
  return (token) => timingSafeEqual(sha256(token), expected);
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
