import { status as Status } from '@grpc/grpc-js';
import { GrpcCallError, invalidArgument, notFound } from '@eligo/runtime';
import type { organizationsSsoV1 } from '@eligo/proto';
import type { OrganizationsClient } from '../../clients/organizations.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';
import { standIn } from '../../../test/stand-in';

// An organization's single sign-on under /rest/admin/v1 as mounted by mountRest, against a recording
// organizations stand-in (every answer checked against the served document): what is sent to the service,
// what comes back (never a secret), and the 400s and 404s. The real service: test/e2e/organization-sso.e2e.test.ts.
const stored: organizationsSsoV1.OrganizationSso = {
  organizationId: 7,
  issuer: 'https://login.stanford.edu',
  clientId: 'eligo',
  hasClientSecret: true,
  scopes: ['openid', 'email'],
  rule: { claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }], emailDomainInOrganization: false },
  updatedAt: new Date(1_700_000_000_000),
};
const calls: [string, unknown][] = [];
let next: Error | undefined;
const reply =
  <T>(method: string, value: T) =>
  async (req: unknown): Promise<T> => {
    calls.push([method, req]);
    if (next) throw next;
    return value;
  };
const organizations = standIn<OrganizationsClient>('organizations', {
  setOrganizationSso: reply('set', { sso: stored }),
  getOrganizationSso: reply('get', { sso: stored }),
  deleteOrganizationSso: reply('delete', {}),
});

let app: TestRestApp;
let url: string;
beforeAll(async () => {
  app = await startTestRestApp({ organizations });
  url = `${app.origin}/rest/admin/v1/organizations`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  next = undefined;
});

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
};
const answered = {
  organizationId: 7,
  issuer: 'https://login.stanford.edu',
  clientId: 'eligo',
  hasClientSecret: true,
  scopes: ['openid', 'email'],
  rule: { claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }], emailDomainInOrganization: false },
  updated: 1_700_000_000_000,
};

it('PUT sends the whole setting, the secret included, and answers it without the secret', async () => {
  const res = await call('PUT', '/7/sso', {
    issuer: 'https://login.stanford.edu',
    clientId: 'eligo',
    clientSecret: 's3cret',
    rule: { claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }] },
  });
  expect(res).toEqual({ status: 200, body: answered });
  expect(calls).toEqual([
    [
      'set',
      {
        organizationId: 7,
        issuer: 'https://login.stanford.edu',
        clientId: 'eligo',
        clientSecret: 's3cret',
        scopes: [],
        rule: {
          claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }],
          emailDomainInOrganization: false,
        },
      },
    ],
  ]);
});

it('PUT without a secret asks the service to keep the stored one', async () => {
  await call('PUT', '/7/sso', {
    issuer: 'https://login.stanford.edu',
    clientId: 'eligo',
    scopes: ['email'],
    rule: { emailDomainInOrganization: true },
  });
  expect(calls[0]![1]).toMatchObject({ clientSecret: '', scopes: ['email'], rule: { claims: [] } });
});

it('refuses a body the schema refuses without calling the service, naming the field', async () => {
  const res = await call('PUT', '/7/sso', {
    issuer: 'https://x.edu',
    clientId: 'eligo',
    rule: { claims: 3 },
  });
  expect(res).toEqual({
    status: 400,
    body: { errorIds: ['invalidRequest'], systemErrorMessage: 'body.rule.claims must be array' },
  });
  expect(calls).toEqual([]);
});

it("passes on the service's refusal as 400 invalidRequest", async () => {
  next = invalidArgument('rule: must check something', { errorIds: ['invalidRequest'] });
  const res = await call('PUT', '/7/sso', { issuer: 'https://x.edu', clientId: 'eligo', rule: {} });
  expect(res).toEqual({
    status: 400,
    body: { errorIds: ['invalidRequest'], systemErrorMessage: 'rule: must check something' },
  });
});

it('GET answers the setting; DELETE 204', async () => {
  expect(await call('GET', '/7/sso')).toEqual({ status: 200, body: answered });
  expect(await call('DELETE', '/7/sso')).toEqual({ status: 204, body: undefined });
  expect(calls).toEqual([
    ['get', { organizationId: 7 }],
    ['delete', { organizationId: 7 }],
  ]);
});

it('answers 404 for an organization id that cannot be one, without a call', async () => {
  for (const [method, path] of [
    ['GET', '/0/sso'],
    ['DELETE', '/abc/sso'],
    ['PUT', '/-1/sso'],
  ] as const) {
    const res = await call(method, path, method === 'PUT' ? {} : undefined);
    expect([res.status, res.body?.errorIds]).toEqual([404, ['noOrganization']]);
  }
  expect(calls).toEqual([]);
});

it('answers 404 noOrganization, or 404 without an errorId for an organization without single sign-on', async () => {
  next = notFound('Organization not found', { errorIds: ['noOrganization'] });
  expect((await call('GET', '/7/sso')).body).toEqual({
    errorIds: ['noOrganization'],
    systemErrorMessage: 'Organization not found',
  });
  next = new GrpcCallError(Status.NOT_FOUND, 'The organization has no single sign-on');
  for (const method of ['GET', 'DELETE']) {
    expect(await call(method, '/7/sso')).toEqual({
      status: 404,
      body: { errorIds: [], systemErrorMessage: 'The organization has no single sign-on' },
    });
  }
});
