import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { organizationsApi } from '../support/organizations-api';
import { programsApi, unknownId, type ProgramsApi } from '../support/programs-api';

// Add-school requests end to end: a person asks (REST v2, no token), staff list, accept or decline them
// (admin API), and an accepted school is in the catalog at once. The daily limit is 2 requests per program,
// so each scenario uses its own program.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let orgs: ReturnType<typeof organizationsApi>;

beforeAll(async () => {
  eligo = await startAllInProcess({
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_ORGANIZATIONS_ADD_SCHOOL_DAILY_LIMIT: '2',
  });
  api = programsApi(eligo);
  orgs = organizationsApi(api);
}, 180_000);
afterAll(async () => eligo?.stop());

async function program(): Promise<string> {
  const { accountId } = await api.createAccount('AddSchool');
  return (await api.createProgram(accountId)).programId;
}

const addSchool = (programId: string, schoolName: string, extra: Record<string, string> = {}) =>
  api.v2('POST', '/organization/addSchool', {
    body: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      schoolName,
      schoolDomain: `${schoolName.toLowerCase().replace(/[^a-z]/g, '')}.edu`,
      schoolCountry: 'US',
      programId,
      ...extra,
    },
  });

describe('add-school requests', () => {
  it('stores a request (204), lists it for operators, accepts it into the catalog and declines another', async () => {
    const programId = await program();
    expect(await addSchool(programId, 'Brand New Academy')).toMatchObject({ status: 204, body: undefined });
    expect((await addSchool(programId, 'Second Academy')).status).toBe(204);

    const list = await api.admin('GET', `/addSchoolRequests?programId=${programId}&status=PENDING`);
    expect(list.status).toBe(200);
    expect(list.body.nextPageToken).toBeNull();
    expect(list.body.requests.map((r: { schoolName: string }) => r.schoolName)).toEqual([
      'Second Academy',
      'Brand New Academy',
    ]);
    const pending = list.body.requests[1];
    expect(pending).toEqual({
      requestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      programId,
      status: 'PENDING',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      schoolName: 'Brand New Academy',
      schoolDomain: 'brandnewacademy.edu',
      schoolCountry: 'US',
      created: expect.any(Number),
      decided: null,
      organizationId: null,
      declineReason: null,
      trackingId: null,
    });
    const paged = await api.admin('GET', `/addSchoolRequests?programId=${programId}&pageSize=1`);
    expect([paged.body.requests.length, typeof paged.body.nextPageToken]).toEqual([1, 'string']);

    const accepted = await api.admin('POST', `/addSchoolRequests/${pending.requestId}/accept`, {
      body: { type: 'UNIVERSITY', city: 'Boston' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.request).toMatchObject({ status: 'ACCEPTED', decided: expect.any(Number) });
    expect(accepted.body.organization).toEqual({
      id: accepted.body.request.organizationId,
      name: 'Brand New Academy',
      type: 'UNIVERSITY',
      country: 'US',
      domains: ['brandnewacademy.edu'],
      city: 'Boston',
      state: null,
      externalKey: `add-school:${pending.requestId}`,
      loginUrl: null,
    });
    expect(orgs.names(await orgs.search(programId, { name: 'brand new academy' }))).toEqual([
      'Brand New Academy',
    ]);
    const got = await api.admin('GET', `/organizations/${accepted.body.organization.id}`);
    expect([got.status, got.body]).toEqual([200, accepted.body.organization]);

    const again = await api.admin('POST', `/addSchoolRequests/${pending.requestId}/decline`);
    expect([again.status, again.body]).toEqual([
      409,
      { systemErrorMessage: expect.stringMatching(/already accepted/) },
    ]);

    const second = list.body.requests[0].requestId;
    const declined = await api.admin('POST', `/addSchoolRequests/${second}/decline`, {
      body: { reason: 'duplicate' },
    });
    expect(declined.status).toBe(200);
    expect(declined.body.request).toMatchObject({
      status: 'DECLINED',
      declineReason: 'duplicate',
      organizationId: null,
    });
  });

  it('answers 429 tooManyAddSchoolRequests past the daily limit of the program', async () => {
    const programId = await program();
    expect((await addSchool(programId, 'One College')).status).toBe(204);
    expect((await addSchool(programId, 'Two College')).status).toBe(204);
    const third = await addSchool(programId, 'Three College');
    expect([third.status, third.body]).toEqual([
      429,
      { errorIds: ['tooManyAddSchoolRequests'], systemErrorMessage: expect.any(String) },
    ]);
  });

  it('answers 400 invalidEmail, 400 invalidRequest and 404 noProgram', async () => {
    const programId = await program();
    const email = await addSchool(programId, 'Mail College', { email: 'not-an-email' });
    expect([email.status, email.body.errorIds]).toEqual([400, ['invalidEmail']]);
    const missing = await api.v2('POST', '/organization/addSchool', { body: { programId } });
    expect([missing.status, missing.body.errorIds]).toEqual([400, ['invalidRequest']]);
    const unknown = await addSchool(unknownId, 'Nowhere College');
    expect([unknown.status, unknown.body.errorIds]).toEqual([404, ['noProgram']]);
  });

  it('answers 404 for unknown requests and organizations', async () => {
    expect((await api.admin('POST', `/addSchoolRequests/${unknownId}/decline`)).status).toBe(404);
    expect(
      (await api.admin('POST', '/addSchoolRequests/nope/accept', { body: { type: 'OTHER' } })).status,
    ).toBe(404);
    for (const id of ['999999999', 'abc', '1.5', '0'])
      expect([id, (await api.admin('GET', `/organizations/${id}`)).status]).toEqual([id, 404]);
  });
});
