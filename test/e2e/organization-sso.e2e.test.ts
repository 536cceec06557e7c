import type { ServiceUnderTest } from '@eligo/local-infra';
import { Client } from 'pg';
import { startAllInProcess } from '../support/in-process';
import { organizationsApi } from '../support/organizations-api';
import { programsApi, type ProgramsApi } from '../support/programs-api';

// An organization's single sign-on through the admin API, against the real gateway and organizations service:
// PUT, GET and DELETE, the refusals, the write-only client secret (never answered, stored encrypted) and the
// audit log.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let db: Client;
let organizationId: number;
const startedAt = new Date().toISOString();
const secret = 'client-secret-of-the-e2e-suite';
const path = (id: number | string = organizationId) => `/organizations/${id}/sso`;
const setting = {
  issuer: 'https://login.leidenuniv.nl/realms/students',
  clientId: 'eligo',
  clientSecret: secret,
  scopes: ['email', 'affiliation'],
  rule: { claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }], emailDomainInOrganization: true },
};

beforeAll(async () => {
  eligo = await startAllInProcess({ ELIGO_ORGANIZATIONS_SEED: 'none' });
  api = programsApi(eligo);
  const imported = await organizationsApi(api).importCsv([
    {
      externalId: 'sso-1',
      name: 'Leiden University',
      type: 'UNIVERSITY',
      country: 'NL',
      domains: ['leidenuniv.nl'],
    },
  ]);
  expect(imported.status).toBe(200);
  db = new Client({ connectionString: eligo.databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ id: string }>(
    "select id from organizations.organizations where external_key = 'sso-1'",
  );
  organizationId = Number(rows[0]!.id);
}, 180_000);
afterAll(async () => {
  await db?.end();
  await eligo?.stop();
});

const storedSecret = async () =>
  (
    await db.query<{ client_secret_encrypted: Buffer | null }>(
      'select client_secret_encrypted from organizations.organization_sso where organization_id = $1',
      [organizationId],
    )
  ).rows[0]?.client_secret_encrypted;

it('PUT stores the setting and answers it without the secret; GET answers the same', async () => {
  const put = await api.admin('PUT', path(), { body: setting });
  expect(put.status).toBe(200);
  expect(put.body).toEqual({
    organizationId,
    issuer: setting.issuer,
    clientId: 'eligo',
    hasClientSecret: true,
    scopes: ['openid', 'email', 'affiliation'],
    rule: setting.rule,
    updated: expect.any(Number),
  });
  const got = await api.admin('GET', path());
  expect([got.status, got.body]).toEqual([200, put.body]);
  expect(JSON.stringify([put.body, got.body])).not.toContain(secret);
  // Encrypted at rest: the stored bytes are not the secret.
  const stored = await storedSecret();
  expect(stored).toBeInstanceOf(Buffer);
  expect(stored!.includes(Buffer.from(secret))).toBe(false);
});

it('a PUT without the secret keeps the stored one', async () => {
  const before = await storedSecret();
  const { clientSecret: _left, ...withoutSecret } = setting;
  const put = await api.admin('PUT', path(), {
    body: { ...withoutSecret, rule: { emailDomainInOrganization: true } },
  });
  expect(put.status).toBe(200);
  expect(put.body).toMatchObject({
    hasClientSecret: true,
    rule: { claims: [], emailDomainInOrganization: true },
  });
  expect(await storedSecret()).toEqual(before);
});

it('refuses what the schema refuses and what the service refuses, naming the field', async () => {
  const bad = await api.admin('PUT', path(), { body: { ...setting, scopes: ['two words'] } });
  expect([bad.status, bad.body]).toEqual([
    400,
    {
      errorIds: ['invalidRequest'],
      systemErrorMessage: 'body.scopes[0] must be 1 to 64 printable ASCII characters without space, " or \\',
    },
  ]);
  const empty = await api.admin('PUT', path(), { body: { ...setting, rule: {} } });
  expect([empty.status, empty.body]).toEqual([
    400,
    {
      errorIds: ['invalidRequest'],
      systemErrorMessage:
        'rule: must check something: give at least one claim rule, or emailDomainInOrganization',
    },
  ]);
  const plainHttp = await api.admin('PUT', path(), {
    body: { ...setting, issuer: 'http://login.leidenuniv.nl' },
  });
  expect([plainHttp.status, plainHttp.body.systemErrorMessage]).toEqual([
    400,
    'issuer: must use https (http only for a non-public IP address inside ELIGO_WEBHOOK_ALLOW_CIDRS)',
  ]);
  const unknown = await api.admin('PUT', path(999_999), { body: setting });
  expect([unknown.status, unknown.body.errorIds]).toEqual([404, ['noOrganization']]);
});

it('DELETE removes it; GET and DELETE then answer 404 without an errorId', async () => {
  expect((await api.admin('DELETE', path())).status).toBe(204);
  const none = await api.admin('GET', path());
  expect([none.status, none.body]).toEqual([
    404,
    { errorIds: [], systemErrorMessage: 'The organization has no single sign-on' },
  ]);
  expect((await api.admin('DELETE', path())).status).toBe(404);
  expect(await storedSecret()).toBeUndefined();
});

it('writes the changes to the audit log, without the secret', async () => {
  const audit = await api.admin('GET', `/audit?from=${encodeURIComponent(startedAt)}&limit=500`);
  expect(audit.status).toBe(200);
  const entries = (audit.body.entries as { action: string; status: number; targets: unknown }[]).filter((e) =>
    e.action.endsWith('OrganizationSso'),
  );
  expect(entries.map((e) => `${e.action} ${e.status}`).reverse()).toEqual([
    'adminPutOrganizationSso 200',
    'adminPutOrganizationSso 200',
    'adminPutOrganizationSso 400',
    'adminPutOrganizationSso 400',
    'adminPutOrganizationSso 400',
    'adminPutOrganizationSso 404',
    'adminDeleteOrganizationSso 204',
    'adminDeleteOrganizationSso 404',
  ]);
  expect(entries.at(-1)!.targets).toEqual({ organizationId: String(organizationId) });
  expect(JSON.stringify(audit.body)).not.toContain(secret);
});
