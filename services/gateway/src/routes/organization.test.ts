import { notFound } from '@eligo/runtime';
import { organizationsOrganizationV1, organizationsV1 } from '@eligo/proto';
import type { OrganizationsClient } from '../clients/organizations.client';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';
import { addSchoolRequest } from '../../test/request-bodies';
import { standIn } from '../../test/stand-in';

// The organization routes as mounted by mountRest, against a recording organizations stand-in: what the body
// of POST /organization/addSchool may carry besides the spec's fields (trackingId), what the searches' query
// and bodies become, and what never reaches the service.
const programId = 'ab'.repeat(12);
const calls: [string, unknown][] = [];
const planned = new Map<string, Error>();
const stanford = organizationsOrganizationV1.Organization.fromPartial({
  id: 7,
  name: 'Stanford University',
  country: 'US',
  type: 'UNIVERSITY',
  domains: ['stanford.edu'],
});
const record =
  <Res>(method: string, reply: Res) =>
  async (req: unknown): Promise<Res> => {
    calls.push([method, req]);
    const failure = planned.get(method);
    if (failure) throw failure;
    return reply;
  };
const searchResult = {
  result: { errorIds: ['tooManyOrganizationMatches'], eligible: [stanford], ineligible: [] },
};
const organizations = standIn<OrganizationsClient>('organizations', {
  requestAddSchool: record('requestAddSchool', { requestId: '12'.repeat(12) }),
  searchProgramOrganizations: record('searchProgramOrganizations', { organizations: [stanford] }),
  searchOrganizationsByKind: record('searchOrganizationsByKind', { organizations: [stanford] }),
  searchAddSchoolByDomain: record('searchAddSchoolByDomain', searchResult),
  searchAddSchoolByName: record('searchAddSchoolByName', searchResult),
});

let url: string;
let app: TestRestApp;

beforeAll(async () => {
  app = await startTestRestApp({ organizations, bodyLimit: '10kb' });
  url = `${app.origin}/rest/v2`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  planned.clear();
});

const request = { ...addSchoolRequest, programId };

async function addSchool(body: unknown) {
  const res = await fetch(`${url}/organization/addSchool`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as unknown) };
}

describe('POST /organization/addSchool', () => {
  it('passes the request on, with an empty trackingId when none is given', async () => {
    expect((await addSchool(request)).status).toBe(204);
    expect(calls).toEqual([['requestAddSchool', { ...request, trackingId: '' }]]);
  });

  it("passes the client's trackingId on, to be kept with the request", async () => {
    expect((await addSchool({ ...request, trackingId: 'crm-ticket 42/β' })).status).toBe(204);
    expect(calls).toEqual([['requestAddSchool', { ...request, trackingId: 'crm-ticket 42/β' }]]);
  });

  it.each<[string, unknown, string]>([
    ['an empty trackingId', '', 'body.trackingId must NOT have fewer than 1 characters'],
    [
      'a trackingId over 256 characters',
      'x'.repeat(257),
      'body.trackingId must NOT have more than 256 characters',
    ],
    ['a control character in trackingId', 'a\u0000b', 'body.trackingId must not contain control characters'],
    ['a trackingId that is a number', 42, 'body.trackingId must be string'],
  ])('refuses %s with 400 invalidRequest, without a call', async (_name, trackingId, message) => {
    const res = await addSchool({ ...request, trackingId });
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });

  it('still refuses an unknown property, naming the allowed ones', async () => {
    const res = await addSchool({ ...request, phone: '1' });
    expect([res.status, res.body]).toEqual([
      400,
      {
        errorIds: ['invalidRequest'],
        systemErrorMessage:
          'body has unexpected property phone (allowed: firstName, lastName, email, schoolName, schoolDomain, ' +
          'schoolCountry, programId, trackingId)',
      },
    ]);
    expect(calls).toEqual([]);
  });
});

const er = (message: string) => ({ errorIds: ['invalidRequest'], systemErrorMessage: message });
const stanfordJson = { id: 7, name: 'Stanford University', country: 'US', type: 'UNIVERSITY' };

async function get(path: string) {
  const res = await fetch(`${url}${path}`);
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
}

async function post(path: string, body: unknown, contentType = 'application/json') {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('GET /program/{programId}/organization', () => {
  it('passes the name on, the country upper case, and 0 for the default limit', async () => {
    const res = await get(`/program/${programId}/organization?name=stan&country=us`);
    expect([res.status, res.body]).toEqual([200, [stanfordJson]]);
    expect(calls).toEqual([
      ['searchProgramOrganizations', { programId, name: 'stan', country: 'US', limit: 0 }],
    ]);
  });

  it('passes an empty country as any, and the limit given', async () => {
    expect((await get(`/program/${programId}/organization?name=stan&country=&limit=10`)).status).toBe(200);
    expect(calls).toEqual([
      ['searchProgramOrganizations', { programId, name: 'stan', country: '', limit: 10 }],
    ]);
  });

  it.each([
    ['no name', '', 'query.name is required'],
    ['an empty name', '?name=', 'query.name is required'],
    ['a repeated name', '?name=a&name=b', 'query.name must be given once, as a plain value'],
    [
      'a name over 1000 characters',
      `?name=${'x'.repeat(1001)}`,
      'query.name must be at most 1000 characters',
    ],
    ['a NUL in the name', '?name=a%00b', 'query.name must not contain control characters'],
    [
      'an unknown country',
      '?name=a&country=ZZ',
      'query.country: "ZZ" is not an ISO 3166-1 alpha-2 country code',
    ],
    ['a limit of 0', '?name=a&limit=0', 'query.limit must be an integer from 1 to 100'],
  ])('refuses %s with 400 ER invalidRequest, without a call', async (_name, query, message) => {
    const res = await get(`/program/${programId}/organization${query}`);
    expect([res.status, res.body, calls]).toEqual([400, er(message), []]);
  });

  it('answers a malformed programId as an unknown program, 404 SEM, before reading the query', async () => {
    const res = await get('/program/nope/organization');
    expect([res.status, res.body, calls]).toEqual([404, { systemErrorMessage: 'Program not found' }, []]);
  });

  it("answers the service's unknown program with SEM", async () => {
    planned.set('searchProgramOrganizations', notFound('Program not found', { errorIds: ['noProgram'] }));
    const res = await get(`/program/${programId}/organization?name=stan`);
    expect([res.status, res.body]).toEqual([404, { systemErrorMessage: 'Program not found' }]);
  });
});

describe('the deprecated per-audience searches', () => {
  it.each([
    ['student', organizationsV1.OrganizationKind.ORGANIZATION_KIND_STUDENT],
    ['military', organizationsV1.OrganizationKind.ORGANIZATION_KIND_MILITARY],
    ['teacher', organizationsV1.OrganizationKind.ORGANIZATION_KIND_TEACHER],
  ])('/organization/%s searches its kind, with the Deprecation and Link headers', async (kind, code) => {
    const res = await get(`/organization/${kind}?name=stan&limit=5`);
    expect([res.status, res.body]).toEqual([200, [stanfordJson]]);
    expect(res.headers.get('deprecation')).toBe('@1767225600');
    expect(res.headers.get('link')).toBe(
      '<https://eligo.example.com/rest/v2/openapi.json>; rel="deprecation"; type="application/json"',
    );
    expect(calls).toEqual([
      ['searchOrganizationsByKind', { kind: code, name: 'stan', country: '', limit: 5 }],
    ]);
  });

  it('carries the headers on a refusal too', async () => {
    const res = await get('/organization/student?limit=5');
    expect([res.status, res.body, calls]).toEqual([400, er('query.name is required'), []]);
    expect(res.headers.get('deprecation')).toBe('@1767225600');
  });
});

describe('the add-school searches', () => {
  const answer = {
    errorIds: ['tooManyOrganizationMatches'],
    eligible: [stanfordJson],
    ineligible: [],
  };

  it('pass the domain search on as sent, and answer the split result', async () => {
    const body = { programId, schoolDomain: ' Stanford.EDU ', schoolCountry: 'us' };
    expect(await post('/organization/addSchool/search/domain', body)).toEqual({ status: 200, body: answer });
    expect(calls).toEqual([['searchAddSchoolByDomain', body]]);
  });

  it('pass the name search on as sent', async () => {
    const body = { programId, schoolName: 'Stanford', schoolCountry: 'US' };
    expect(await post('/organization/addSchool/search/name', body)).toEqual({ status: 200, body: answer });
    expect(calls).toEqual([['searchAddSchoolByName', body]]);
  });

  it.each<[string, unknown, string]>([
    [
      '/organization/addSchool/search/domain',
      { programId, schoolName: 'X', schoolCountry: 'US' },
      'body.schoolDomain is required',
    ],
    [
      '/organization/addSchool/search/name',
      { programId, schoolName: 'X', schoolCountry: 'US', schoolDomain: 'x.edu' },
      'body has unexpected property schoolDomain (allowed: programId, schoolName, schoolCountry)',
    ],
    [
      '/organization/addSchool/search/name',
      { programId: 'AB'.repeat(12), schoolName: 'X', schoolCountry: 'US' },
      'body.programId must match pattern "^[0-9a-f]{24}$"',
    ],
  ])('%s refuses %j with 400 invalidRequest, without a call', async (path, body, message) => {
    expect([await post(path, body), calls]).toEqual([{ status: 400, body: er(message) }, []]);
  });

  it('refuses a request without a JSON body', async () => {
    const res = await post(
      '/organization/addSchool/search/name',
      'programId=x',
      'application/x-www-form-urlencoded',
    );
    expect([res, calls]).toEqual([
      { status: 400, body: er('body is required (Content-Type: application/json)') },
      [],
    ]);
  });
});
