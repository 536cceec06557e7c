import { adminClient, restV2Client, type Schemas } from '@eligo/client';
import { startEligoSuite, type EligoSuite } from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { importUniversity, janeDoe } from '../support/verification-api';

// @eligo/client against a running Eligo: the admin API with the operator token, then a verification through
// REST v2 as an integrator writes it, every call typed from the OpenAPI document.
const adminToken = `eligo_admin_${'client'.repeat(5)}`;
let suite: EligoSuite;

beforeAll(async () => {
  suite = await startEligoSuite(adminToken);
}, 90_000);
afterAll(() => suite?.stop());

it('creates an account, a token and a program, then runs a verification to success', async () => {
  const admin = adminClient({ baseUrl: suite.eligo.httpUrl, token: adminToken });
  const account = await admin.POST('/accounts', { body: { name: 'Typed Co' } });
  expect(account.response.status).toBe(201);
  const accountId = account.data!.accountId;
  const token = await admin.POST('/accounts/{accountId}/tokens', {
    params: { path: { accountId } },
    body: { name: 'integration' },
  });
  expect(token.response.status).toBe(201);
  const program = await admin.POST('/programs', { body: { accountId, name: 'Typed', segment: 'student' } });
  expect(program.response.status).toBe(201);
  const programId = program.data!.programId;
  const organization = await importUniversity(
    programsApi({ httpUrl: suite.eligo.httpUrl, adminToken }),
    programId,
    'Typed Client University',
  );

  const v2 = restV2Client({ baseUrl: `${suite.eligo.httpUrl}/`, token: token.data!.token });
  const started = await v2.POST('/verification', { body: { programId, trackingId: 'typed-1' } });
  expect(started.data?.currentStep).toBe('collectStudentPersonalInfo');
  const verificationId = started.data!.verificationId;
  const body: Schemas['StudentSubject'] = { ...janeDoe, organization };
  const done = await v2.POST('/verification/{verificationId}/step/collectStudentPersonalInfo', {
    params: { path: { verificationId } },
    body,
  });
  expect([done.response.status, done.data?.currentStep]).toEqual([200, 'success']);

  // An error answer comes back typed as `error`, with the HTTP response.
  const refused = await v2.POST('/verification/{verificationId}/step/collectStudentPersonalInfo', {
    params: { path: { verificationId } },
    body,
  });
  expect(refused.response.status).toBe(400);
  expect(refused.data).toBeUndefined();
  expect(refused.error).toMatchObject({ errorIds: ['invalidStep'] });
}, 60_000);
