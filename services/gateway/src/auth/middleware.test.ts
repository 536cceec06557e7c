import type { AddressInfo } from 'node:net';
import express from 'express';
import { AuthCache } from './auth-cache';
import { createAuthenticator } from './authenticator';
import { authMiddlewares, bearerToken } from './middleware';
import { INVALID_TOKEN_MESSAGE } from './principal';

// Only what needs no programs service: the operator token and the header checks. Account tokens are
// covered end to end against the real service (test/e2e/programs-auth.test.ts).
const token = 'eligo_admin_0123456789abcdefghijklmnop';
/** A token the stand-in cannot check: the programs service is down (UNAVAILABLE). */
const outage = 'eligo_sk_during_an_outage';
const serviceCalls: string[] = [];
const auth = authMiddlewares(
  createAuthenticator({
    operatorToken: token,
    cache: new AuthCache({ ttlMs: 1000 }),
    authenticate: async (req) => {
      serviceCalls.push(req.token);
      throw Object.assign(new Error('not reachable in this test'), { code: req.token === outage ? 14 : 16 });
    },
  }),
);
let url: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.get('/operator', auth.requireOperator, (_req, res) => void res.json(res.locals.principal));
  app.get('/any', auth.requireAnyToken, (_req, res) => void res.json(res.locals.principal));
  app.get('/account', auth.requireAccount, (_req, res) => void res.json(res.locals.principal));
  app.get('/caller', auth.callerAccount, (_req, res) => void res.json(res.locals.principal ?? null));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());
beforeEach(() => (serviceCalls.length = 0));

const get = (path: string, header?: string) =>
  fetch(`${url}${path}`, { headers: header === undefined ? {} : { authorization: header } });

it.each(['/operator', '/any'])('lets the operator token through on %s', async (path) => {
  const res = await get(path, `Bearer ${token}`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ kind: 'operator' });
  expect(serviceCalls).toEqual([]);
});

it('accepts the scheme in any case, as RFC 7235 says', async () => {
  expect((await get('/operator', `bearer ${token}`)).status).toBe(200);
});

it('refuses the operator token on account endpoints without asking the service', async () => {
  const res = await get('/account', `Bearer ${token}`);
  expect(res.status).toBe(401);
  expect(serviceCalls).toEqual([]);
});

it('refuses any other token on operator endpoints without asking the service', async () => {
  const res = await get('/operator', 'Bearer eligo_sk_some_account_token');
  expect(res.status).toBe(401);
  expect(serviceCalls).toEqual([]);
});

it.each([
  ['missing', undefined],
  ['empty', 'Bearer'],
  ['blank', 'Bearer    '],
  ['wrong', `Bearer ${token.slice(0, -1)}X`],
  ['a prefix of the token', `Bearer ${token.slice(0, 10)}`],
  ['two tokens', `Bearer ${token} ${token}`],
  ['basic auth', `Basic ${token}`],
])('refuses a %s token with 401, a challenge and the spec message', async (_name, header) => {
  const res = await get('/operator', header);
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
  expect(await res.json()).toEqual({ systemErrorMessage: INVALID_TOKEN_MESSAGE });
});

it('does not send absurdly long tokens to the service', async () => {
  expect(bearerToken(`Bearer ${'x'.repeat(2049)}`)).toBeUndefined();
  expect(bearerToken(`Bearer ${'x'.repeat(2048)}`)).toHaveLength(2048);
  expect((await get('/any', `Bearer ${'x'.repeat(5000)}`)).status).toBe(401);
  expect(serviceCalls).toEqual([]);
});

it.each([
  ['no token', undefined],
  ['the operator token', `Bearer ${token}`],
  ['a token that is not valid', 'Bearer eligo_sk_some_account_token'],
  ['a malformed header', 'Basic abc'],
  ['a token that cannot be checked (programs service down)', `Bearer ${outage}`],
])('lets a creation path go on anonymously with %s', async (_name, header) => {
  const res = await get('/caller', header);
  expect([res.status, await res.json()]).toEqual([200, null]);
});
