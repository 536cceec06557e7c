import { checkObjectSignature, presignedObjectUrl, signObjectRequest } from './fs-signing';

const secret = 's'.repeat(32);
const key = 'documents/abc/front.png';
const expiresAt = 1_900_000_000; // 2030
const beforeExpiry = (expiresAt - 60) * 1000;

function paramsOf(url: string): { expires: string | null; signature: string | null } {
  const params = new URL(url).searchParams;
  return { expires: params.get('X-Eligo-Expires'), signature: params.get('X-Eligo-Signature') };
}

describe('fs presigned URL signing', () => {
  it('builds {base}/objects/{key} with the expiry and signature, keeping a base path', () => {
    for (const base of ['http://localhost:8080/storage', 'http://localhost:8080/storage/']) {
      const url = new URL(presignedObjectUrl(base, secret, 'GET', key, expiresAt));
      expect(url.origin + url.pathname).toBe(`http://localhost:8080/storage/objects/${key}`);
      expect(url.searchParams.get('X-Eligo-Expires')).toBe(String(expiresAt));
      expect(url.searchParams.get('X-Eligo-Signature')).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('accepts the URL it issued, for that method and key, until it expires', () => {
    const { expires, signature } = paramsOf(presignedObjectUrl('http://h', secret, 'PUT', key, expiresAt));
    expect(checkObjectSignature(secret, 'PUT', key, expires, signature, beforeExpiry)).toBe('valid');
    expect(checkObjectSignature(secret, 'PUT', key, expires, signature, expiresAt * 1000)).toBe('valid');
    expect(checkObjectSignature(secret, 'PUT', key, expires, signature, expiresAt * 1000 + 1)).toBe(
      'expired',
    );
  });

  it('binds the signature to method, key, expiry and secret', () => {
    const signature = signObjectRequest(secret, 'GET', key, expiresAt);
    const check = (...args: Parameters<typeof checkObjectSignature>) => checkObjectSignature(...args);
    expect(check(secret, 'GET', key, String(expiresAt), signature, beforeExpiry)).toBe('valid');
    expect(check(secret, 'PUT', key, String(expiresAt), signature, beforeExpiry)).toBe('invalid');
    expect(check(secret, 'GET', `${key}x`, String(expiresAt), signature, beforeExpiry)).toBe('invalid');
    expect(check(secret, 'GET', key, String(expiresAt + 3600), signature, beforeExpiry)).toBe('invalid');
    expect(check('t'.repeat(32), 'GET', key, String(expiresAt), signature, beforeExpiry)).toBe('invalid');
  });

  it('refuses an expired URL only after its signature checks out (a forged one is just invalid)', () => {
    const afterExpiry = (expiresAt + 10) * 1000;
    const signature = signObjectRequest(secret, 'GET', key, expiresAt);
    expect(checkObjectSignature(secret, 'GET', key, String(expiresAt), signature, afterExpiry)).toBe(
      'expired',
    );
    expect(checkObjectSignature(secret, 'GET', key, String(expiresAt), '0'.repeat(64), afterExpiry)).toBe(
      'invalid',
    );
  });

  const good = signObjectRequest(secret, 'GET', key, expiresAt);
  const changed = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
  it.each([
    ['missing expiry', undefined, good],
    ['repeated expiry', [String(expiresAt), String(expiresAt)], good],
    ['non-decimal expiry (19e8 is the same number)', '19e8', good],
    ['negative expiry', '-1', good],
    ['missing signature', String(expiresAt), undefined],
    ['truncated signature', String(expiresAt), good.slice(0, 8)],
    ['upper-case signature', String(expiresAt), good.toUpperCase()],
    ['repeated signature', String(expiresAt), [good, good]],
    ['signature with one digit changed', String(expiresAt), changed],
  ])('rejects a %s', (_name, expires, signature) => {
    expect(checkObjectSignature(secret, 'GET', key, expires, signature, beforeExpiry)).toBe('invalid');
  });

  it("keeps a key's slashes as path separators", () => {
    const url = presignedObjectUrl('https://files.example.com', secret, 'GET', 'a-b_c.d/e', expiresAt);
    expect(new URL(url).pathname).toBe('/objects/a-b_c.d/e');
  });
});
