import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import {
  failure,
  newAccount,
  outboxEvents,
  rowText,
  startPrograms,
  TokenRole,
  type Harness,
} from './support';

describe('accounts and access tokens', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startPrograms();
  });
  afterAll(async () => {
    await h?.stop();
  });

  describe('CreateAccount', () => {
    it('creates an account with a trimmed name and a 24-hex id', async () => {
      const { account } = await h.client.unary('createAccount', { name: '  Acme Inc.  ' });
      expect(account!.accountId).toMatch(/^[0-9a-f]{24}$/);
      expect(account!.name).toBe('Acme Inc.');
      expect(account!.createdAt).toBeInstanceOf(Date);
    });

    it.each([
      ['an empty', '   ', 'name: is required'],
      ['a too long', 'x'.repeat(201), 'name: must be at most 200 characters'],
    ])('refuses %s name with INVALID_ARGUMENT invalidRequest', async (_case, name, message) => {
      const err = await failure(h.client.unary('createAccount', { name }));
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(err.errorIds).toEqual(['invalidRequest']);
      expect(err.message).toBe(message);
    });
  });

  describe('CreateAccessToken', () => {
    it('issues a prefixed token and client credentials, and stores only hashes', async () => {
      const accountId = await newAccount(h.client);
      const created = await h.client.unary('createAccessToken', {
        accountId,
        name: ' reporting ',
        roles: [TokenRole.TOKEN_ROLE_PII, TokenRole.TOKEN_ROLE_UNSPECIFIED, TokenRole.TOKEN_ROLE_REPORTER, 2],
      });
      expect(created.tokenId).toMatch(/^[0-9a-f]{24}$/);
      expect(created.token).toMatch(/^eligo_[A-Za-z0-9_-]{43}$/);
      expect(created.clientId).toMatch(/^eligo_client_[0-9a-f]{24}$/);
      expect(created.clientSecret).toMatch(/^eligo_secret_[A-Za-z0-9_-]{43}$/);
      expect(created.name).toBe('reporting');
      expect(created.roles).toEqual([TokenRole.TOKEN_ROLE_REPORTER, TokenRole.TOKEN_ROLE_PII]);

      const row = await h.db
        .withSchema('programs')
        .table('access_tokens')
        .where({ id: created.tokenId })
        .first();
      const sha = (v: string) => createHash('sha256').update(v).digest();
      expect(Buffer.compare(row.token_hash, sha(created.token))).toBe(0);
      expect(Buffer.compare(row.client_secret_hash, sha(created.clientSecret))).toBe(0);
      const stored = await rowText(h.db, 'access_tokens', created.tokenId);
      expect(stored).toContain(created.clientId); // the client id is not a secret: stored plain, looked up
      for (const secret of [created.token, created.clientSecret]) {
        expect(stored).not.toContain(secret);
        expect(stored).not.toContain(Buffer.from(secret).toString('hex'));
      }
    });

    it('answers NOT_FOUND (SEM) for an unknown or malformed account', async () => {
      for (const accountId of ['0123456789abcdef01234567', 'nope']) {
        const err = await failure(h.client.unary('createAccessToken', { accountId, name: 'n', roles: [] }));
        expect(err.code).toBe(status.NOT_FOUND);
        expect(err.message).toBe('Account not found');
      }
    });

    it.each([
      ['an empty name', { name: '' }, 'name: is required'],
      ['a name over 100 characters', { name: 'n'.repeat(101) }, 'name: must be at most 100 characters'],
      ['an unknown role', { name: 'n', roles: [9] }, 'roles: unknown role 9'],
    ])('refuses %s', async (_case, fields, message) => {
      const accountId = await newAccount(h.client);
      const err = await failure(h.client.unary('createAccessToken', { accountId, roles: [], ...fields }));
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(err.errorIds).toEqual(['invalidRequest']);
      expect(err.message).toBe(message);
    });
  });

  describe('Authenticate and RevokeAccessToken', () => {
    it('resolves a static token to its account and roles (no expiry)', async () => {
      const accountId = await newAccount(h.client);
      const created = await h.client.unary('createAccessToken', {
        accountId,
        name: 't',
        roles: [TokenRole.TOKEN_ROLE_BULK_VERIFIER],
      });
      const principal = await h.client.unary('authenticate', { token: created.token });
      expect(principal).toEqual({
        accountId,
        tokenId: created.tokenId,
        roles: [TokenRole.TOKEN_ROLE_BULK_VERIFIER],
        expiresAt: undefined,
      });
    });

    it.each([
      ['an empty', ''],
      ['an unknown', `eligo_${'A'.repeat(43)}`],
      ['a malformed', 'Bearer something'],
      ['a client secret as', `eligo_secret_${'A'.repeat(43)}`],
    ])('refuses %s token with UNAUTHENTICATED invalidApiToken (SEM)', async (_case, token) => {
      const err = await failure(h.client.unary('authenticate', { token }));
      expect(err.code).toBe(status.UNAUTHENTICATED);
      expect(err.errorIds).toEqual(['invalidApiToken']);
      expect(err.message).toBe('Access token is empty or invalid');
    });

    it('revokes a token once: it stops authenticating, a second revoke succeeds without a second event', async () => {
      const accountId = await newAccount(h.client);
      const created = await h.client.unary('createAccessToken', { accountId, name: 't', roles: [] });
      await h.client.unary('revokeAccessToken', { accountId, tokenId: created.tokenId });
      const err = await failure(h.client.unary('authenticate', { token: created.token }));
      expect(err.code).toBe(status.UNAUTHENTICATED);
      await h.client.unary('revokeAccessToken', { accountId, tokenId: created.tokenId });

      const events = await outboxEvents(h.db, created.tokenId);
      expect(events.map((e) => e.type)).toEqual(['eligo.programs.v1.TokenRevoked']);
      const row = await h.db
        .withSchema('programs')
        .table('access_tokens')
        .where({ id: created.tokenId })
        .first();
      expect(row.revoked_at).toBeInstanceOf(Date);
    });

    it('answers NOT_FOUND (SEM) for an unknown token or a token of another account, and leaves it working', async () => {
      const owner = await newAccount(h.client);
      const other = await newAccount(h.client, 'Other');
      const created = await h.client.unary('createAccessToken', { accountId: owner, name: 't', roles: [] });
      for (const request of [
        { accountId: other, tokenId: created.tokenId },
        { accountId: owner, tokenId: '0123456789abcdef01234567' },
        { accountId: owner, tokenId: 'bad' },
      ]) {
        const err = await failure(h.client.unary('revokeAccessToken', request));
        expect(err.code).toBe(status.NOT_FOUND);
        expect(err.message).toBe('Access token not found');
      }
      await expect(h.client.unary('authenticate', { token: created.token })).resolves.toMatchObject({
        accountId: owner,
      });
    });
  });
});
