import { createHash } from 'node:crypto';
import {
  isClientIdFormat,
  isClientSecretFormat,
  isJwtFormat,
  isStaticTokenFormat,
  issueCredentials,
  normaliseRoles,
  secretMatches,
  sha256,
} from './tokens';
import { newWebhookSigningSecret } from './webhook';

describe('credentials', () => {
  it('issues prefixed, random credentials and their SHA-256 hashes', () => {
    const a = issueCredentials();
    const b = issueCredentials();
    expect(a.token).toMatch(/^eligo_[A-Za-z0-9_-]{43}$/);
    expect(a.clientId).toMatch(/^eligo_client_[0-9a-f]{24}$/);
    expect(a.clientSecret).toMatch(/^eligo_secret_[A-Za-z0-9_-]{43}$/);
    expect(a.tokenId).toMatch(/^[0-9a-f]{24}$/);
    expect(a.tokenHash).toEqual(createHash('sha256').update(a.token).digest());
    expect(a.clientSecretHash).toEqual(createHash('sha256').update(a.clientSecret).digest());
    expect(b.token).not.toBe(a.token);
    expect(b.clientSecret).not.toBe(a.clientSecret);
    expect(isStaticTokenFormat(a.token)).toBe(true);
    expect(isClientIdFormat(a.clientId)).toBe(true);
    expect(isClientSecretFormat(a.clientSecret)).toBe(true);
  });

  it.each<[string, (v: string) => boolean, string, boolean]>([
    ['static token', isStaticTokenFormat, `eligo_${'a'.repeat(43)}`, true],
    ['static token too short', isStaticTokenFormat, `eligo_${'a'.repeat(42)}`, false],
    ['static token wrong prefix', isStaticTokenFormat, `other_${'a'.repeat(43)}`, false],
    ['static token with +', isStaticTokenFormat, `eligo_${'a'.repeat(42)}+`, false],
    ['client id', isClientIdFormat, `eligo_client_${'0'.repeat(24)}`, true],
    ['client id in upper case', isClientIdFormat, `eligo_client_${'A'.repeat(24)}`, false],
    ['client secret', isClientSecretFormat, `eligo_secret_${'-'.repeat(43)}`, true],
    ['client secret that is a token', isClientSecretFormat, `eligo_${'a'.repeat(43)}`, false],
    ['jwt', isJwtFormat, 'aaa.bbb.ccc', true],
    ['jwt with two parts', isJwtFormat, 'aaa.bbb', false],
    ['jwt with empty signature', isJwtFormat, 'aaa.bbb.', false],
    ['jwt over 4096 characters', isJwtFormat, `${'a'.repeat(4094)}.b.c`, false],
  ])('%s: %j', (_case, check, value, expected) => {
    expect(check(value)).toBe(expected);
  });

  it('matches a secret against its stored hash only', () => {
    const stored = sha256('eligo_secret_x');
    expect(secretMatches('eligo_secret_x', stored)).toBe(true);
    expect(secretMatches('eligo_secret_y', stored)).toBe(false);
    expect(secretMatches('eligo_secret_x', Buffer.alloc(3))).toBe(false);
  });

  it.each([
    [[], []],
    [
      ['PII', 'REPORTER', 'PII'],
      ['REPORTER', 'PII'],
    ],
    [
      ['BULK_VERIFIER', 'REPORTER'],
      ['REPORTER', 'BULK_VERIFIER'],
    ],
  ] as const)('normaliseRoles(%j) = %j', (roles, expected) => {
    expect(normaliseRoles(roles)).toEqual(expected);
  });

  it('makes webhook signing secrets whsec_ + 32 bytes in standard base64 (Standard Webhooks)', () => {
    const secret = newWebhookSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newWebhookSigningSecret()).not.toBe(secret);
  });
});
