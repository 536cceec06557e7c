import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { organizationsApi, type OrganizationFixture } from '../support/organizations-api';
import { programsApi, unknownId, type ProgramsApi } from '../support/programs-api';

// Organization search and the add-school searches through the gateway, against the real organizations and
// programs services (requests: organizations-add-school.e2e.test.ts; import: organizations-import.e2e.test.ts). The catalog starts empty (no swot seed): every organization below is
// loaded through the admin import, half as CSV, half as NDJSON.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let orgs: ReturnType<typeof organizationsApi>;
/** A student program (accepts UNIVERSITY, POST_SECONDARY, HIGH_SCHOOL in every country). */
let studentProgram: string;

const uni = (
  externalId: string,
  name: string,
  country: string,
  domains: string[] = [],
): OrganizationFixture => ({
  externalId,
  name,
  type: 'UNIVERSITY',
  country,
  domains,
});
const csvFixtures: OrganizationFixture[] = [
  { ...uni('e2e-uzh', 'Universität Zürich', 'CH', ['uzh.ch']), city: 'Zürich' },
  uni('e2e-eth', 'ETH Zürich', 'CH', ['ethz.ch']),
  {
    externalId: 'e2e-zins',
    name: 'Zurich Insurance',
    type: 'CORPORATE',
    country: 'CH',
    domains: ['zurich.ch'],
  },
  { ...uni('e2e-zus', 'Zurich Technical College', 'US'), type: 'POST_SECONDARY' },
  { ...uni('e2e-stan', 'Stanford University', 'US', ['stanford.edu']), city: 'Stanford', state: 'CA' },
  uni('e2e-q3', 'North Quillon College', 'US'),
];
const ndjsonFixtures: OrganizationFixture[] = [
  uni('e2e-q2', 'Quillon Institute of Technology', 'US'),
  uni('e2e-q1', 'Quillon', 'US'),
  { externalId: 'e2e-army', name: 'Swiss Armed Forces', type: 'MILITARY', country: 'CH' },
  ...Array.from({ length: 30 }, (_, i) => uni(`e2e-tv${i}`, `Tomato Valley College ${i + 1}`, 'US')),
];

const invalidRequest = (message: string | RegExp) => ({
  errorIds: ['invalidRequest'],
  systemErrorMessage: typeof message === 'string' ? message : expect.stringMatching(message),
});
const sem = { systemErrorMessage: expect.any(String) };

beforeAll(async () => {
  eligo = await startAllInProcess({
    ELIGO_ORGANIZATIONS_SEED: 'none',
  });
  api = programsApi(eligo);
  orgs = organizationsApi(api);
  const csv = await orgs.importCsv(csvFixtures);
  const ndjson = await orgs.importNdjson(ndjsonFixtures);
  expect([csv.status, csv.body.created, ndjson.status, ndjson.body.created]).toEqual([
    200,
    csvFixtures.length,
    200,
    ndjsonFixtures.length,
  ]);
  const { accountId } = await api.createAccount('Orgs');
  ({ programId: studentProgram } = await api.createProgram(accountId));
}, 180_000);
afterAll(async () => eligo?.stop());

/** A program of a new account, with its own settings. */
async function program(settings: Record<string, unknown> = {}): Promise<string> {
  const { accountId } = await api.createAccount('AddSchool');
  return (await api.createProgram(accountId, settings)).programId;
}

describe('GET /program/{programId}/organization', () => {
  it('ranks exact, then prefix, then substring matches, with the spec fields', async () => {
    const res = await orgs.search(studentProgram, { name: 'quillon' });
    expect(res.status).toBe(200);
    expect(orgs.names(res).slice(0, 3)).toEqual([
      'Quillon',
      'Quillon Institute of Technology',
      'North Quillon College',
    ]);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      name: 'Quillon',
      country: 'US',
      type: 'UNIVERSITY',
    });
  });

  it('ignores case and accents, filters by country in any case, and leaves out what the program does not accept', async () => {
    const all = orgs.names(await orgs.search(studentProgram, { name: 'zurich' }));
    expect(all).toEqual(
      expect.arrayContaining(['Universität Zürich', 'ETH Zürich', 'Zurich Technical College']),
    );
    expect(all).not.toContain('Zurich Insurance');
    expect(orgs.names(await orgs.search(studentProgram, { name: 'ZÜRICH', country: 'ch' })).sort()).toEqual([
      'ETH Zürich',
      'Universität Zürich',
    ]);
    expect(orgs.names(await orgs.search(studentProgram, { name: 'zurich', country: 'US' }))).toEqual([
      'Zurich Technical College',
    ]);
    expect((await orgs.search(studentProgram, { name: 'zurich', limit: '1' })).body).toHaveLength(1);
  });

  it('answers 404 SEM for an unknown or malformed program, without a token', async () => {
    for (const id of [unknownId, 'nope']) {
      const res = await orgs.search(id, { name: 'zurich' });
      expect([id, res.status, res.body]).toEqual([id, 404, sem]);
    }
  });

  it('answers 400 invalidRequest naming the parameter', async () => {
    expect(await orgs.search(studentProgram, {})).toMatchObject({
      status: 400,
      body: invalidRequest('query.name is required'),
    });
    expect(await orgs.search(studentProgram, { name: 'x', country: 'CHE' })).toMatchObject({
      status: 400,
      body: invalidRequest(/query\.country/),
    });
  });
});

describe('deprecated GET /organization/{student,military,teacher}', () => {
  const link = expect.stringMatching(/^<http.*\/rest\/v2\/openapi\.json>; rel="deprecation"/);

  it('searches by audience and says it is deprecated (RFC 9745)', async () => {
    const student = await api.v2('GET', '/organization/student?name=zurich');
    expect(student.status).toBe(200);
    expect(student.headers.get('deprecation')).toBe('@1767225600');
    expect(student.headers.get('link')).toEqual(link);
    expect(orgs.names(student)).toEqual(expect.arrayContaining(['Universität Zürich', 'ETH Zürich']));
    expect(orgs.names(student)).not.toContain('Zurich Insurance');
    const military = await api.v2('GET', '/organization/military?name=swiss&country=ch');
    expect(orgs.names(military)).toEqual(['Swiss Armed Forces']);
  });

  it('says so on errors too', async () => {
    const res = await api.v2('GET', '/organization/teacher');
    expect(res.status).toBe(400);
    expect(res.headers.get('deprecation')).toBe('@1767225600');
    expect(res.headers.get('link')).toEqual(link);
  });
});

describe('POST /organization/addSchool/search/{domain,name}', () => {
  it('finds the organization of a host or its parent domain, eligible for the program', async () => {
    const res = await api.v2('POST', '/organization/addSchool/search/domain', {
      body: { programId: studentProgram, schoolDomain: 'cs.stanford.edu', schoolCountry: 'US' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      errorIds: [],
      eligible: [{ id: expect.any(Number), name: 'Stanford University', country: 'US', type: 'UNIVERSITY' }],
      ineligible: [],
    });
    const k12Only = await program({ organizationRules: { types: ['K12'] } });
    const other = await api.v2('POST', '/organization/addSchool/search/domain', {
      body: { programId: k12Only, schoolDomain: 'stanford.edu', schoolCountry: 'US' },
    });
    expect(other.body).toMatchObject({ eligible: [], ineligible: [{ name: 'Stanford University' }] });
  });

  it('splits a name search into what the program accepts and what it does not', async () => {
    const res = await api.v2('POST', '/organization/addSchool/search/name', {
      body: { programId: studentProgram, schoolName: 'zurich', schoolCountry: 'CH' },
    });
    expect(res.status).toBe(200);
    expect(res.body.errorIds).toEqual([]);
    const names = (list: { name: string }[]) => list.map((o) => o.name).sort();
    expect(names(res.body.eligible)).toEqual(['ETH Zürich', 'Universität Zürich']);
    expect(names(res.body.ineligible)).toEqual(['Zurich Insurance']);
  });

  it('returns the best 25 with tooManyOrganizationMatches when more match', async () => {
    const res = await api.v2('POST', '/organization/addSchool/search/name', {
      body: { programId: studentProgram, schoolName: 'tomato valley', schoolCountry: 'US' },
    });
    expect(res.status).toBe(200);
    expect(res.body.errorIds).toEqual(['tooManyOrganizationMatches']);
    expect(res.body.eligible.length + res.body.ineligible.length).toBe(25);
  });

  it.each<[string, Record<string, unknown>, string | RegExp]>([
    ['a missing field', { schoolDomain: 'stanford.edu' }, 'body.schoolCountry is required'],
    ['an extra field', { schoolDomain: 'stanford.edu', schoolCountry: 'US', x: 1 }, /unexpected property x/],
    [
      'a domain without a period',
      { schoolDomain: 'stanford', schoolCountry: 'US' },
      /schoolDomain: must contain a period/,
    ],
    [
      'an unknown top-level domain',
      { schoolDomain: 'stanford.notatld', schoolCountry: 'US' },
      /known top-level domain/,
    ],
    [
      'an invalid programId',
      { programId: 'abc', schoolDomain: 'stanford.edu', schoolCountry: 'US' },
      /programId/,
    ],
  ])('answers 400 invalidRequest for %s', async (_name, body, message) => {
    const res = await api.v2('POST', '/organization/addSchool/search/domain', {
      body: { programId: studentProgram, ...body },
    });
    expect([res.status, res.body]).toEqual([400, invalidRequest(message)]);
  });

  it('answers 400 for a country the program does not accept and 404 noProgram for an unknown one', async () => {
    const usOnly = await program({ countries: ['US'] });
    const country = await api.v2('POST', '/organization/addSchool/search/name', {
      body: { programId: usOnly, schoolName: 'zurich', schoolCountry: 'CH' },
    });
    expect([country.status, country.body]).toEqual([
      400,
      invalidRequest(/schoolCountry: CH is not eligible/),
    ]);
    const unknown = await api.v2('POST', '/organization/addSchool/search/name', {
      body: { programId: unknownId, schoolName: 'zurich', schoolCountry: 'CH' },
    });
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { errorIds: ['noProgram'], systemErrorMessage: expect.any(String) },
    ]);
  });
});
