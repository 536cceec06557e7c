import { startEligoSuite, type EligoProcess, type EligoSuite } from '../support/eligo-process';
import { programsApi, type ProgramsApi } from '../support/programs-api';

// What generated and hostile input found: requests that answered 500 and, because the service said INTERNAL,
// opened the gateway's circuit breaker, so that four of them without a token made every verification
// endpoint answer 503 for 10 s. Each must be the client's 4xx, and none may take the API down.
const token = `eligo_admin_${'hostile'.repeat(4)}`;
let suite: EligoSuite;
let eligo: EligoProcess;
let api: ProgramsApi;
let programId: string;
let accountId: string;

beforeAll(async () => {
  suite = await startEligoSuite(token);
  eligo = suite.eligo;
  api = programsApi({ httpUrl: eligo.httpUrl, adminToken: token });
  const tenant = await api.tenant('Hostile');
  programId = tenant.program.programId;
  accountId = tenant.account.accountId;
}, 120_000);

afterAll(async () => {
  await suite?.stop();
});

const raw = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(`${eligo.httpUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body,
  });

it('answers each input that used to be a 500 with a 4xx and the spec body, and the API stays up', async () => {
  const verification = (await api.v2('POST', '/verification', { body: { programId } })).body.verificationId;
  const hostile: [string, string, string?, Record<string, string>?][] = [
    ['GET', '/rest/v2/verification/%E0%A4%A'],
    ['GET', `/rest/v2/verification/${verification}/%E0%A4%A`],
    ['PUT', '/uploads/%E0%A4%A'],
    ['POST', '/rest/v2/verification', JSON.stringify({ programId, trackingId: 'a\u0000b' })],
    ['GET', `/rest/v2/verification/program/${programId}/trackingId/a%00b`],
    [
      'POST',
      `/rest/v2/conversion/verification/${verification}`,
      JSON.stringify({ amount: 1, tags: ['a\u0000'] }),
    ],
    ['POST', `/rest/v2/conversion/account/${accountId}/trackingId/a%00b`, JSON.stringify({ amount: 1 })],
    [
      'PATCH',
      `/rest/admin/v1/programs/${programId}`,
      '{"organizationRules":{"excludeIds":[1e22]}}',
      { authorization: `Bearer ${token}`, 'content-type': 'application/merge-patch+json' },
    ],
  ];
  // Well past the breaker's volume threshold (5 calls, half of them failing, in 10 s).
  for (let round = 0; round < 4; round++) {
    for (const [method, path, body, headers] of hostile) {
      const res = await raw(method, path, body, headers);
      const text = await res.text();
      expect([method, path, res.status >= 400 && res.status < 500, text]).toEqual([
        method,
        path,
        true,
        expect.stringMatching(/"systemErrorMessage"/),
      ]);
    }
  }
  // Every verification endpoint still answers.
  const started = await api.v2('POST', '/verification', { body: { programId } });
  expect(started.status).toBe(200);
  expect((await api.v2('GET', `/verification/${started.body.verificationId}`)).status).toBe(200);
  const submitted = await api.v2(
    'POST',
    `/verification/${started.body.verificationId}/step/collectStudentPersonalInfo`,
    {
      body: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        birthDate: '2000-01-31',
        email: 'ada@example.com',
        organization: { name: 'Analytical Engine Academy' },
      },
    },
  );
  expect(submitted.status).not.toBeGreaterThanOrEqual(500);
});

it('takes a double slash after the base URL (.../rest/v2/ + /verification/...)', async () => {
  const started = await raw('POST', '/rest/v2//verification', JSON.stringify({ programId }));
  expect(started.status).toBe(200);
  const { verificationId } = (await started.json()) as { verificationId: string };
  expect((await raw('GET', `/rest/v2//verification/${verificationId}`)).status).toBe(200);
});
