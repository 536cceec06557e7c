import { allModules } from '@eligo/cli/modules';
import { startServiceUnderTest, type ServiceUnderTest } from '@eligo/local-infra';
import { call, programsApi, type ProgramsApi } from '../support/programs-api';

// A gateway whose programs service cannot be reached: a token it cannot check is an outage (503), never a
// verdict on the token (401).
let gateway: ServiceUnderTest;
let api: ProgramsApi;

beforeAll(async () => {
  const services = ['programs', 'verification', 'documents', 'organizations', 'reports', 'notifier'];
  gateway = await startServiceUnderTest({
    modules: { gateway: allModules.gateway },
    targets: ['gateway'],
    env: {
      // Port 1 on loopback: nothing listens, every call fails fast with UNAVAILABLE.
      ...Object.fromEntries(services.map((s) => [`ELIGO_${s.toUpperCase()}_GRPC_ADDRESS`, '127.0.0.1:1'])),
      ELIGO_GRPC_DEADLINE_MS: '1000',
    },
  });
  api = programsApi(gateway);
}, 120_000);
afterAll(async () => gateway?.stop());

const accountToken = `eligo_${'B'.repeat(43)}`;

it('answers 503 (not 401) on token endpoints when the token cannot be checked', async () => {
  for (const path of ['/info', '/program/0123456789abcdef01234567/theme']) {
    const res = await api.v2('GET', path, { token: accountToken });
    expect([path, res.status]).toEqual([path, 503]);
    expect(res.body).toEqual({ systemErrorMessage: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
  }
});

it('still answers 401 without a token, and serves the operator without asking the programs service', async () => {
  expect((await api.v2('GET', '/info')).status).toBe(401);
  const info = await api.v2('GET', '/info', { token: gateway.adminToken });
  expect(info.status).toBe(200);
  expect(info.body.modules.find((m: { module: string }) => m.module === 'programs').status).toBe(
    'UNAVAILABLE',
  );
  // The admin API checks the operator token itself; the call it makes is what fails.
  expect((await api.admin('POST', '/accounts', { body: { name: 'x' } })).status).toBe(503);
  expect((await api.admin('POST', '/accounts', { body: { name: 'x' }, token: accountToken })).status).toBe(
    401,
  );
});

it('answers 503 at the OAuth token endpoint', async () => {
  const res = await call(`${gateway.httpUrl}/rest/oauth`, 'POST', '/token', {
    raw: 'grant_type=client_credentials&client_id=eligo_client_x&client_secret=eligo_secret_y',
    contentType: 'application/x-www-form-urlencoded',
  });
  expect(res.status).toBe(503);
});
