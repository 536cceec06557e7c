import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { programsApi, type ProgramsApi } from '../support/programs-api';

// Tenant isolation: a token acts on its own account's programs only, and every token endpoint needs one.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let owner: Awaited<ReturnType<ProgramsApi['tenant']>>;
let intruder: Awaited<ReturnType<ProgramsApi['tenant']>>;

beforeAll(async () => {
  eligo = await startAllInProcess();
  api = programsApi(eligo);
  owner = await api.tenant('Owner');
  intruder = await api.tenant('Intruder');
}, 120_000);
afterAll(async () => eligo?.stop());

/** Every REST v2 token endpoint of a program, each with a body it would accept. */
const endpoints = (programId: string): [string, string, unknown?][] => [
  ['GET', `/program/${programId}/theme`],
  ['POST', `/program/${programId}/verificationLimit`, { quantity: 1, days: 1 }],
  ['DELETE', `/program/${programId}/verificationLimit`],
  ['POST', `/program/${programId}/webhook`, { callbackUri: 'https://attacker.example.com/hook' }],
  ['DELETE', `/program/${programId}/webhook`],
  ['POST', `/program/${programId}/sendLink`, { email: 'victim@example.com' }],
];

it("answers 404 noProgram on every endpoint for another account's program, and changes nothing", async () => {
  const before = (await api.admin('GET', `/programs/${owner.program.programId}`)).body;
  for (const [method, path, body] of endpoints(owner.program.programId)) {
    const res = await api.v2(method, path, { token: intruder.token.token, body });
    expect([method, path, res.status]).toEqual([method, path, 404]);
    expect(res.body).toEqual({ errorIds: ['noProgram'], systemErrorMessage: expect.any(String) });
  }
  // The same answer as for a program that does not exist: existence does not leak.
  const unknown = await api.v2('GET', '/program/0123456789abcdef01234567/theme', {
    token: intruder.token.token,
  });
  const foreign = await api.v2('GET', `/program/${owner.program.programId}/theme`, {
    token: intruder.token.token,
  });
  expect(foreign.body).toEqual(unknown.body);
  expect((await api.admin('GET', `/programs/${owner.program.programId}`)).body).toEqual(before);
});

it('lets the owner use every endpoint on its own program', async () => {
  for (const [method, path, body] of endpoints(owner.program.programId)) {
    const res = await api.v2(method, path, { token: owner.token.token, body });
    expect([method, path, res.status]).toEqual([
      method,
      path,
      method === 'POST' && path.endsWith('sendLink') ? 204 : 200,
    ]);
  }
});

it.each([
  ['no token', undefined],
  ['a garbage token', 'garbage'],
  ['a well-formed token that was never issued', `eligo_${'A'.repeat(43)}`],
  ['a forged OAuth token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ['the operator token (not accepted on account endpoints)', 'operator'],
])('answers 401 on every endpoint for %s', async (_name, bearer) => {
  const token = bearer === 'operator' ? eligo.adminToken : bearer;
  for (const [method, path, body] of endpoints(owner.program.programId)) {
    const res = await api.v2(method, path, { token, body });
    expect([method, path, res.status]).toEqual([method, path, 401]);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toEqual({ systemErrorMessage: 'Access token is empty or invalid' });
  }
});

it('answers 401 before looking at the program id or the body', async () => {
  const res = await api.v2('POST', '/program/not-an-id/webhook', { body: { nonsense: true } });
  expect(res.status).toBe(401);
});

it('GET /info needs a token: an account token and the operator token work, nothing else', async () => {
  expect((await api.v2('GET', '/info', { token: owner.token.token })).status).toBe(200);
  expect((await api.v2('GET', '/info', { token: eligo.adminToken })).status).toBe(200);
  for (const token of [undefined, 'garbage']) {
    const res = await api.v2('GET', '/info', { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ systemErrorMessage: 'Access token is empty or invalid' });
  }
});
