import { randomBytes } from 'node:crypto';
import {
  clearedSessionCookie,
  csrfKeyOf,
  csrfMatches,
  csrfTokenOf,
  newSessionId,
  sessionCookie,
  sessionIdFromCookies,
  sessionIdHash,
} from './session-secrets';

const master = randomBytes(32);

describe('staff session ids', () => {
  it('are 32 random bytes in base64url, stored only as their SHA-256', () => {
    const id = newSessionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(32);
    expect(newSessionId()).not.toBe(id);
    expect(sessionIdHash(id)).toHaveLength(32);
    expect(sessionIdHash(id).toString('base64url')).not.toBe(id);
  });

  it('are read from the Cookie header among other cookies, and nothing else is', () => {
    const id = newSessionId();
    expect(sessionIdFromCookies(`theme=dark; eligo_staff=${id}; lang=fr`)).toBe(id);
    expect(sessionIdFromCookies(`eligo_staff=${id}`)).toBe(id);
    for (const header of [
      undefined,
      '',
      'eligo_staff=',
      'eligo_staff=short',
      `x_eligo_staff=${id}`,
      `eligo_staff=${id}x`,
    ])
      expect(sessionIdFromCookies(header)).toBeUndefined();
  });
});

describe('CSRF tokens', () => {
  const key = csrfKeyOf(master);

  it('are an HMAC of the session id: stable for a session, different for another, or under another key', () => {
    const id = newSessionId();
    const token = csrfTokenOf(key, id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrfTokenOf(key, id)).toBe(token);
    expect(csrfTokenOf(key, newSessionId())).not.toBe(token);
    expect(csrfTokenOf(csrfKeyOf(randomBytes(32)), id)).not.toBe(token);
    expect(token).not.toContain(id);
  });

  it('match only the exact token', () => {
    const token = csrfTokenOf(key, newSessionId());
    expect(csrfMatches(token, token)).toBe(true);
    for (const presented of [
      undefined,
      '',
      token.slice(0, -1),
      `${token}x`,
      token.toUpperCase(),
      ` ${token}`,
    ])
      expect(csrfMatches(token, presented)).toBe(false);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict, Path=/, with the lifetime as Max-Age; Secure over https only', () => {
    const id = newSessionId();
    expect(sessionCookie(id, 12 * 3_600_000, false)).toBe(
      `eligo_staff=${id}; Path=/; Max-Age=43200; HttpOnly; SameSite=Strict`,
    );
    expect(sessionCookie(id, 12 * 3_600_000, true)).toBe(
      `eligo_staff=${id}; Path=/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure`,
    );
    expect(clearedSessionCookie(true)).toBe(
      'eligo_staff=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
    );
  });
});
