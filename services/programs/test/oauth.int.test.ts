import { status } from '@grpc/grpc-js';
import { SignJWT, decodeJwt } from 'jose';
import { failure, newAccount, startPrograms, TokenRole, type Harness } from './support';

async function credentials(h: Harness, roles = [TokenRole.TOKEN_ROLE_REPORTER]) {
  const accountId = await newAccount(h.client);
  const created = await h.client.unary('createAccessToken', { accountId, name: 'oauth', roles });
  return { accountId, ...created };
}

/** A JWT with the service's claims, signed with a key the service does not have. */
async function forged(claims: { sub: string; acc: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ acc: claims.acc, roles: ['REPORTER'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('eligo')
    .setAudience('eligo-rest')
    .setSubject(claims.sub)
    .setJti('forged')
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(new Uint8Array(32).fill(7));
}

describe('OAuth client credentials', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startPrograms();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('issues a Bearer JWT that authenticates as the token it was issued for, with its expiry', async () => {
    const c = await credentials(h, [TokenRole.TOKEN_ROLE_PII]);
    const before = Date.now();
    const issued = await h.client.unary('issueOAuthToken', {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
    });
    expect(issued.tokenType).toBe('Bearer');
    expect(issued.expiresInSeconds).toBe(900); // the default lifetime
    const claims = decodeJwt(issued.accessToken);
    expect(claims).toMatchObject({ iss: 'eligo', aud: 'eligo-rest', sub: c.tokenId, acc: c.accountId });
    expect(typeof claims.jti).toBe('string');

    const principal = await h.client.unary('authenticate', { token: issued.accessToken });
    expect(principal.accountId).toBe(c.accountId);
    expect(principal.tokenId).toBe(c.tokenId);
    expect(principal.roles).toEqual([TokenRole.TOKEN_ROLE_PII]);
    const expiresAt = principal.expiresAt!.getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 900_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 901_000);
  });

  it('gives every issued token its own jti', async () => {
    const c = await credentials(h);
    const a = await h.client.unary('issueOAuthToken', { clientId: c.clientId, clientSecret: c.clientSecret });
    const b = await h.client.unary('issueOAuthToken', { clientId: c.clientId, clientSecret: c.clientSecret });
    expect(decodeJwt(a.accessToken).jti).not.toBe(decodeJwt(b.accessToken).jti);
  });

  it.each([
    [
      'a wrong secret',
      (c: { clientId: string }) => ({ clientId: c.clientId, clientSecret: `eligo_secret_${'x'.repeat(43)}` }),
    ],
    [
      'an unknown client',
      (c: { clientSecret: string }) => ({
        clientId: `eligo_client_${'0'.repeat(24)}`,
        clientSecret: c.clientSecret,
      }),
    ],
    ['empty credentials', () => ({ clientId: '', clientSecret: '' })],
    [
      'the static token as secret',
      (c: { clientId: string; token: string }) => ({ clientId: c.clientId, clientSecret: c.token }),
    ],
  ])('refuses %s with UNAUTHENTICATED invalidClient (SEM)', async (_case, request) => {
    const c = await credentials(h);
    const err = await failure(h.client.unary('issueOAuthToken', request(c)));
    expect(err.code).toBe(status.UNAUTHENTICATED);
    expect(err.errorIds).toEqual(['invalidClient']);
    expect(err.message).toBe('Client authentication failed');
  });

  it('refuses the client of a revoked token', async () => {
    const c = await credentials(h);
    await h.client.unary('revokeAccessToken', { accountId: c.accountId, tokenId: c.tokenId });
    const err = await failure(
      h.client.unary('issueOAuthToken', { clientId: c.clientId, clientSecret: c.clientSecret }),
    );
    expect(err.code).toBe(status.UNAUTHENTICATED);
    expect(err.errorIds).toEqual(['invalidClient']);
  });

  it('stops accepting a JWT issued before its static token was revoked', async () => {
    const c = await credentials(h);
    const issued = await h.client.unary('issueOAuthToken', {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
    });
    await expect(h.client.unary('authenticate', { token: issued.accessToken })).resolves.toMatchObject({
      tokenId: c.tokenId,
    });
    await h.client.unary('revokeAccessToken', { accountId: c.accountId, tokenId: c.tokenId });
    const err = await failure(h.client.unary('authenticate', { token: issued.accessToken }));
    expect(err.code).toBe(status.UNAUTHENTICATED);
    expect(err.errorIds).toEqual(['invalidApiToken']);
  });

  it('refuses forged and tampered JWTs', async () => {
    const c = await credentials(h);
    const issued = await h.client.unary('issueOAuthToken', {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
    });
    const [header, payload, signature] = issued.accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const other = await credentials(h);
    const withClaims = (changes: Record<string, unknown>) =>
      Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    const attempts = {
      'signed with another key': await forged({ sub: c.tokenId, acc: c.accountId }),
      'payload moved to another account': `${header}.${withClaims({ acc: other.accountId, sub: other.tokenId })}.${signature}`,
      'roles widened': `${header}.${withClaims({ roles: ['REPORTER', 'PII', 'BULK_VERIFIER'] })}.${signature}`,
      'signature altered': `${header}.${payload}.${flipped}`,
      'alg none': `${none}.${payload}.`,
    };
    for (const [what, token] of Object.entries(attempts)) {
      const err = await failure(h.client.unary('authenticate', { token }));
      expect({ what, code: err.code, errorIds: err.errorIds }).toEqual({
        what,
        code: status.UNAUTHENTICATED,
        errorIds: ['invalidApiToken'],
      });
    }
    // The genuine token still works: the failures above are the tampering, not the token.
    await expect(h.client.unary('authenticate', { token: issued.accessToken })).resolves.toMatchObject({
      accountId: c.accountId,
    });
  });
});

describe('OAuth access token expiry', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startPrograms({ ELIGO_PROGRAMS_OAUTH_TOKEN_TTL_SECONDS: '1' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('authenticates until the configured lifetime has passed, then fails UNAUTHENTICATED', async () => {
    const c = await credentials(h);
    const issued = await h.client.unary('issueOAuthToken', {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
    });
    expect(issued.expiresInSeconds).toBe(1);
    const principal = await h.client.unary('authenticate', { token: issued.accessToken });
    expect(principal.tokenId).toBe(c.tokenId);
    const expiresAt = principal.expiresAt!.getTime();
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(2000);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 100));
    const err = await failure(h.client.unary('authenticate', { token: issued.accessToken }));
    expect(err.code).toBe(status.UNAUTHENTICATED);
    expect(err.errorIds).toEqual(['invalidApiToken']);
    // The static token it was issued from is unaffected.
    await expect(h.client.unary('authenticate', { token: c.token })).resolves.toMatchObject({
      tokenId: c.tokenId,
    });
  });
});
