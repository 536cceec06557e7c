import { Metadata, status as Status } from '@grpc/grpc-js';
import { programsV1 } from '@eligo/proto';
import { GrpcCallError } from '@eligo/runtime';
import { AuthCache } from './auth-cache';
import { createAuthenticator } from './authenticator';

// The cache's own unit: Authenticate is a fake here; the real programs service is exercised end to end in
// test/e2e/programs-*.test.ts.
const operatorToken = 'eligo_admin_0123456789abcdefghijklmnop';
const accountId = 'ac'.repeat(12);

function setup(ttlMs = 1000) {
  let now = 1_000_000;
  const calls: string[] = [];
  const answers = new Map<string, programsV1.AuthenticateResponse | Error>();
  const cache = new AuthCache({ ttlMs, now: () => now });
  const auth = createAuthenticator({
    operatorToken,
    cache,
    authenticate: async ({ token }) => {
      calls.push(token);
      const answer =
        answers.get(token) ?? new GrpcCallError(Status.UNAUTHENTICATED, 'invalid', new Metadata());
      if (answer instanceof Error) throw answer;
      return answer;
    },
  });
  const valid = (token: string, tokenId: string, expiresAt?: Date) =>
    answers.set(token, { accountId, tokenId, roles: [programsV1.TokenRole.TOKEN_ROLE_PII], expiresAt });
  return {
    auth,
    cache,
    calls,
    answers,
    valid,
    advance: (ms: number) => void (now += ms),
    now: () => now,
  };
}

it('knows the operator token without asking the service', async () => {
  const { auth, calls } = setup();
  expect(await auth.authenticate(operatorToken)).toEqual({ kind: 'operator' });
  expect(auth.isOperator(operatorToken)).toBe(true);
  expect(auth.isOperator(`${operatorToken}x`)).toBe(false);
  expect(calls).toEqual([]);
});

it('reuses a successful answer for the TTL, then asks again', async () => {
  const { auth, calls, valid, advance } = setup(1000);
  valid('tok_a', 'tid_a');
  const principal = { kind: 'account', accountId, tokenId: 'tid_a', roles: ['PII'] };
  expect(await auth.authenticate('tok_a')).toEqual(principal);
  advance(999);
  expect(await auth.authenticate('tok_a')).toEqual(principal);
  advance(1);
  expect(await auth.authenticate('tok_a')).toEqual(principal);
  expect(calls).toEqual(['tok_a']);
  advance(1);
  expect(await auth.authenticate('tok_a')).toEqual(principal);
  expect(calls).toEqual(['tok_a', 'tok_a']);
});

it("never trusts an answer past the token's expires_at", async () => {
  const { auth, calls, valid, advance, now } = setup(1000);
  valid('oauth_a', 'tid_a', new Date(now() + 300));
  await auth.authenticate('oauth_a');
  advance(299);
  await auth.authenticate('oauth_a');
  expect(calls).toHaveLength(1);
  advance(1);
  await auth.authenticate('oauth_a');
  expect(calls).toHaveLength(2);
});

it('does not cache an answer for a token that has already expired', async () => {
  const { auth, calls, valid, now } = setup(1000);
  valid('oauth_old', 'tid_a', new Date(now() - 1));
  await auth.authenticate('oauth_old');
  await auth.authenticate('oauth_old');
  expect(calls).toHaveLength(2);
});

it('does not cache failures: a token valid a moment later works at once', async () => {
  const { auth, calls, valid } = setup(1000);
  expect(await auth.authenticate('tok_new')).toBeUndefined();
  valid('tok_new', 'tid_new');
  expect(await auth.authenticate('tok_new')).toMatchObject({ kind: 'account', tokenId: 'tid_new' });
  expect(calls).toEqual(['tok_new', 'tok_new']);
});

it('drops every cached token of a revoked token id, and only those', async () => {
  const { auth, calls, valid, cache } = setup(60_000);
  valid('static_a', 'tid_a');
  valid('oauth_a', 'tid_a'); // an OAuth token issued from the same credentials
  valid('static_b', 'tid_b');
  for (const t of ['static_a', 'oauth_a', 'static_b']) await auth.authenticate(t);
  expect(cache.size).toBe(3);
  auth.forgetTokenId('tid_a');
  expect(cache.size).toBe(1);
  calls.length = 0;
  for (const t of ['static_a', 'oauth_a', 'static_b']) await auth.authenticate(t);
  expect(calls).toEqual(['static_a', 'oauth_a']);
});

it('does not cache an answer that was in flight when its token was revoked', async () => {
  const { auth, valid, cache, calls } = setup(60_000);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const slow = createAuthenticator({
    operatorToken,
    cache,
    authenticate: async () => {
      await gate;
      return { accountId, tokenId: 'tid_r', roles: [], expiresAt: undefined };
    },
  });
  const pending = slow.authenticate('tok_r');
  auth.forgetTokenId('tid_r');
  release();
  expect(await pending).toMatchObject({ tokenId: 'tid_r' });
  expect(cache.get('tok_r')).toBeUndefined();
  valid('tok_r', 'tid_r');
  await auth.authenticate('tok_r');
  expect(calls).toEqual(['tok_r']);
});

it('keys the cache by a hash: the token itself is not held as a key', async () => {
  const { auth, valid, cache } = setup();
  valid('tok_secret_value', 'tid_s');
  await auth.authenticate('tok_secret_value');
  const keys = [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()];
  expect(keys).toHaveLength(1);
  expect(keys[0]).not.toContain('tok_secret_value');
});

it('with a TTL of 0 asks the service every time', async () => {
  const { auth, calls, valid } = setup(0);
  valid('tok_a', 'tid_a');
  await auth.authenticate('tok_a');
  await auth.authenticate('tok_a');
  expect(calls).toHaveLength(2);
});

it('treats an outage as an error, not as an invalid token', async () => {
  const { auth, answers } = setup();
  answers.set('tok_a', new GrpcCallError(Status.UNAVAILABLE, 'connect ECONNREFUSED'));
  await expect(auth.authenticate('tok_a')).rejects.toMatchObject({ code: Status.UNAVAILABLE });
});
