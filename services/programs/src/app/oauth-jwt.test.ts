import { randomBytes } from 'node:crypto';
import { signAccessToken, verifyAccessToken } from './oauth-jwt';

const key = new Uint8Array(randomBytes(32));
const grant = { tokenId: 'a'.repeat(24), accountId: 'b'.repeat(24), roles: ['PII' as const] };

describe('OAuth access tokens', () => {
  it('verifies what it signed, with a lifetime of at least the TTL and under TTL + 1 s', async () => {
    const now = new Date('2030-01-01T00:00:00.400Z');
    const { jwt, expiresAt } = await signAccessToken(key, grant, 60);
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(Date.now() + 59_000);
    const claims = await verifyAccessToken(key, jwt);
    expect(claims).toEqual({ ...grant, expiresAt });
    const fixed = await signAccessToken(key, grant, 60, now);
    expect(fixed.expiresAt.toISOString()).toBe('2030-01-01T00:01:01.000Z');
  });

  it.each<[string, (jwt: string) => Promise<string> | string, Uint8Array]>([
    ['another key', (jwt) => jwt, new Uint8Array(32)],
    [
      'a changed payload',
      (jwt) => {
        const [h, p, s] = jwt.split('.') as [string, string, string];
        const claims = { ...JSON.parse(Buffer.from(p, 'base64url').toString()), acc: 'c'.repeat(24) };
        return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
      },
      key,
    ],
    [
      'an expired token',
      async () => (await signAccessToken(key, grant, 1, new Date(Date.now() - 5000))).jwt,
      key,
    ],
    ['garbage', () => 'a.b.c', key],
  ])('refuses %s', async (_case, make, verifyKey) => {
    const { jwt } = await signAccessToken(key, grant, 60);
    expect(await verifyAccessToken(verifyKey, await make(jwt))).toBeUndefined();
  });
});
