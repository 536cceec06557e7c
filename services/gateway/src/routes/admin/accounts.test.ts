import { programsV1 } from '@eligo/proto';
import { notFound } from '@eligo/runtime';
import { AuthCache } from '../../auth/auth-cache';
import { createAuthenticator } from '../../auth/authenticator';
import type { ProgramsClient } from '../../clients/programs.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';
import { standIn } from '../../../test/stand-in';

// Accounts and their tokens under /rest/admin/v1 as mounted by mountRest, against a recording programs
// client: the path ids and the bodies are checked before any call (404 before 400), and the answers are the
// document's (the test app checks every JSON answer against it).
const accountId = 'cd'.repeat(12);
const tokenId = 'ef'.repeat(12);
const { TOKEN_ROLE_REPORTER, TOKEN_ROLE_BULK_VERIFIER } = programsV1.TokenRole;

const calls: [string, unknown][] = [];
const forgotten: string[] = [];
const programs = standIn<ProgramsClient>('programs', {
  createAccount: async (req: programsV1.CreateAccountRequest) => {
    calls.push(['createAccount', req]);
    return { account: { accountId, name: req.name, createdAt: new Date(1_700_000_000_000) } };
  },
  createAccessToken: async (req: programsV1.CreateAccessTokenRequest) => {
    calls.push(['createAccessToken', req]);
    return {
      tokenId,
      token: 'eligo_secret_token',
      clientId: 'client-1',
      clientSecret: 'client-secret',
      name: req.name,
      // A role this gateway does not know (a newer service) is left out of the answer.
      roles: [...req.roles, 99],
      createdAt: new Date(1_700_000_000_000),
    };
  },
  revokeAccessToken: async (req: programsV1.RevokeAccessTokenRequest) => {
    calls.push(['revokeAccessToken', req]);
    if (req.tokenId === '00'.repeat(12)) throw notFound('Access token not found');
    return {};
  },
});

let app: TestRestApp;
let url: string;
beforeAll(async () => {
  const authenticator = createAuthenticator({
    operatorToken: TEST_OPERATOR_TOKEN,
    cache: new AuthCache({ ttlMs: 0 }),
    authenticate: async () => {
      throw Object.assign(new Error('bad token'), { code: 16, details: 'bad token', metadata: undefined });
    },
  });
  app = await startTestRestApp({
    programs,
    authenticator: { ...authenticator, forgetTokenId: (id: string) => void forgotten.push(id) },
  });
  url = `${app.origin}/rest/admin/v1`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  forgotten.length = 0;
});

async function call(method: string, path: string, body?: unknown, token = TEST_OPERATOR_TOKEN) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const refused = (message: string) => [400, { errorIds: ['invalidRequest'], systemErrorMessage: message }];

describe('POST /accounts', () => {
  it('creates the account and answers it (201)', async () => {
    const res = await call('POST', '/accounts', { name: 'Acme' });
    expect([res.status, res.body]).toEqual([201, { accountId, name: 'Acme', created: 1_700_000_000_000 }]);
    expect(calls).toEqual([['createAccount', { name: 'Acme' }]]);
  });

  it.each<[unknown, string]>([
    [{}, 'body.name is required'],
    [{ name: 'Acme', plan: 'gold' }, 'body has unexpected property plan (allowed: name)'],
    [{ name: 5 }, 'body.name must be string'],
    [
      { name: 'x'.repeat(201) },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
  ])('refuses %j before any call', async (body, message) => {
    const res = await call('POST', '/accounts', body);
    expect([res.status, res.body]).toEqual(refused(message));
    expect(calls).toEqual([]);
  });

  it('refuses a request without a JSON body', async () => {
    const res = await call('POST', '/accounts');
    expect([res.status, res.body]).toEqual(refused('body is required (Content-Type: application/json)'));
  });

  it('is for the operator only', async () => {
    const res = await call('POST', '/accounts', { name: 'Acme' }, 'eligo_account_token');
    expect(res.status).toBe(401);
    expect(calls).toEqual([]);
  });
});

describe('POST /accounts/{accountId}/tokens', () => {
  it('issues the token with its roles, shown once (201, no-store)', async () => {
    const res = await call('POST', `/accounts/${accountId}/tokens`, {
      name: 'ci',
      roles: ['BULK_VERIFIER', 'REPORTER'],
    });
    expect([res.status, res.headers.get('cache-control')]).toEqual([201, 'no-store']);
    expect(res.body).toEqual({
      tokenId,
      token: 'eligo_secret_token',
      clientId: 'client-1',
      clientSecret: 'client-secret',
      name: 'ci',
      roles: ['REPORTER', 'BULK_VERIFIER'],
      created: 1_700_000_000_000,
    });
    expect(calls).toEqual([
      [
        'createAccessToken',
        { accountId, name: 'ci', roles: [TOKEN_ROLE_BULK_VERIFIER, TOKEN_ROLE_REPORTER] },
      ],
    ]);
  });

  it('issues a token without roles when none are named', async () => {
    expect((await call('POST', `/accounts/${accountId}/tokens`, { name: 'ci' })).status).toBe(201);
    expect(calls).toEqual([['createAccessToken', { accountId, name: 'ci', roles: [] }]]);
  });

  it('answers an id that cannot name an account 404, before the body', async () => {
    const res = await call('POST', '/accounts/ACME/tokens', { roles: 'nope' });
    expect([res.status, res.body]).toEqual([404, { systemErrorMessage: 'Account not found' }]);
    expect(calls).toEqual([]);
  });

  it.each<[unknown, string]>([
    [{ name: 'ci', roles: ['ADMIN'] }, 'body.roles[0] must be one of REPORTER, PII, BULK_VERIFIER'],
    [
      { name: 'ci', roles: ['PII', 'PII'] },
      'body.roles must NOT have duplicate items (items ## 0 and 1 are identical)',
    ],
    [{ name: 'ci', roles: 'PII' }, 'body.roles must be array'],
    [{ roles: [] }, 'body.name is required'],
  ])('refuses %j before any call', async (body, message) => {
    const res = await call('POST', `/accounts/${accountId}/tokens`, body);
    expect([res.status, res.body]).toEqual(refused(message));
    expect(calls).toEqual([]);
  });
});

describe('DELETE /accounts/{accountId}/tokens/{tokenId}', () => {
  it('revokes the token and forgets it in this gateway at once (204)', async () => {
    const res = await call('DELETE', `/accounts/${accountId}/tokens/${tokenId}`);
    expect([res.status, res.body]).toEqual([204, undefined]);
    expect(calls).toEqual([['revokeAccessToken', { accountId, tokenId }]]);
    expect(forgotten).toEqual([tokenId]);
  });

  it.each([
    [`/accounts/ACME/tokens/${tokenId}`, 'Account not found'],
    [`/accounts/${accountId}/tokens/TOKEN`, 'Access token not found'],
  ])('answers %s 404 without a call', async (path, message) => {
    const res = await call('DELETE', path);
    expect([res.status, res.body]).toEqual([404, { systemErrorMessage: message }]);
    expect(calls).toEqual([]);
  });

  it("passes the service's 404 on, and forgets nothing", async () => {
    const res = await call('DELETE', `/accounts/${accountId}/tokens/${'00'.repeat(12)}`);
    expect([res.status, res.body]).toEqual([404, { systemErrorMessage: 'Access token not found' }]);
    expect(forgotten).toEqual([]);
  });
});
