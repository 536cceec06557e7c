import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '@eligo/runtime';

/**
 * The secrets of a staff session (docs/operations.md, "Sessions, cookies and CSRF"): the session id is 32
 * random bytes in base64url, sent only as the HttpOnly cookie; the database keeps only its SHA-256. The CSRF
 * token is an HMAC of the session id under a key derived from ELIGO_ENCRYPTION_KEY, so that any replica
 * checks it without storing it, and it dies with the session.
 */
export const SESSION_COOKIE = 'eligo_staff';
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database stores of a session id. */
export function sessionIdHash(sessionId: string): Buffer {
  return createHash('sha256').update(sessionId, 'utf8').digest();
}

/** The key of the CSRF tokens, derived for that purpose only from the master key. */
export function csrfKeyOf(masterKey: Buffer): Buffer {
  return deriveKey(masterKey, 'gateway.staff-csrf');
}

export function csrfTokenOf(key: Buffer, sessionId: string): string {
  return createHmac('sha256', key).update(sessionId, 'utf8').digest('base64url');
}

/**
 * Whether the presented X-CSRF-Token is the session's: compared in constant time, as hashes of equal length,
 * so that neither the time nor a length mismatch says anything about the expected token.
 */
export function csrfMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined || presented === '') return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

/** The session id in a Cookie header, or undefined (absent, or not the shape of one of ours). */
export function sessionIdFromCookies(header: string | undefined): string | undefined {
  return cookieValue(header, SESSION_COOKIE, SESSION_ID);
}

/** The first value of the cookie of that name in a Cookie header that has the shape given, or undefined. */
/**
 * The Set-Cookie value of a short sign-in transaction (an OpenID flow's state, kept by the browser that started
 * it): HttpOnly, for one path, SameSite=Lax because it must come back with the provider's redirect (a top-level
 * navigation from another site), Secure behind https. Value '' with maxAge 0 clears it.
 */
export function transactionCookie(
  name: string,
  value: string,
  options: { path: string; maxAgeSeconds: number; secure: boolean },
): string {
  return [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

export function cookieValue(header: string | undefined, name: string, shape: RegExp): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    if (shape.test(value)) return value;
  }
  return undefined;
}

/**
 * The Set-Cookie value of a session: HttpOnly, SameSite=Strict, Path=/, Max-Age of its absolute lifetime;
 * Secure when the service is reached over https (ELIGO_PUBLIC_BASE_URL), since a browser would not send a
 * Secure cookie back over plain http (the local `npm start`).
 */
export function sessionCookie(sessionId: string, maxAgeMs: number, secure: boolean): string {
  return cookie(sessionId, Math.floor(maxAgeMs / 1000), secure);
}

/** The Set-Cookie value that makes a browser drop the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return cookie('', 0, secure);
}

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
