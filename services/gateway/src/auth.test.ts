import type { AddressInfo } from 'node:net';
import express from 'express';
import { INVALID_TOKEN_MESSAGE, operatorTokenVerifier, requireToken } from './auth';

const token = 'eligo_admin_0123456789abcdefghijklmnop';
let url: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.get('/guarded', requireToken(operatorTokenVerifier(token)), (_req, res) => {
    res.json({ principal: res.locals.principal });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/guarded`;
  close = () => server.close();
});
afterAll(() => close());

it('lets the operator token through', async () => {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ principal: { kind: 'operator' } });
});

it('accepts the scheme in any case, as RFC 7235 says', async () => {
  expect((await fetch(url, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
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
  const res = await fetch(url, { headers: header === undefined ? {} : { authorization: header } });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
  expect(await res.json()).toEqual({ systemErrorMessage: INVALID_TOKEN_MESSAGE });
});
