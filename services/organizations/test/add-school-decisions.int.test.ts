import {
  AddSchoolRequestStatus,
  failure,
  names,
  newProgram,
  startOrganizations,
  type Harness,
} from './support';

const ACCEPTED = AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_ACCEPTED;
const DECLINED = AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_DECLINED;

/** AcceptAddSchoolRequest and DeclineAddSchoolRequest: one decision per request, in one transaction. */
describe('add-school decisions', () => {
  let h: Harness;
  const person = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.org',
    schoolName: 'Analytical Engine Academy',
    schoolDomain: 'engine-academy.edu',
    schoolCountry: 'US',
    trackingId: '',
  };
  const request = (programId: string) =>
    h.client.unary('requestAddSchool', { programId, ...person }).then((r) => r.requestId);

  beforeAll(async () => {
    h = await startOrganizations();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('accepts a request into the catalog, where the program then finds it', async () => {
    const programId = await newProgram(h.programs);
    const requestId = await request(programId);
    const accepted = await h.client.unary('acceptAddSchoolRequest', {
      requestId,
      organization: {
        externalKey: '',
        name: '',
        type: 'post_secondary',
        country: '',
        domains: [],
        city: 'Boston',
        state: 'MA',
        loginUrl: 'https://sso.engine-academy.edu/login',
      },
    });
    expect(accepted.organization).toEqual({
      id: expect.any(Number),
      name: 'Analytical Engine Academy',
      type: 'POST_SECONDARY',
      country: 'US',
      domains: ['engine-academy.edu'],
      city: 'Boston',
      state: 'MA',
      externalKey: `add-school:${requestId}`,
      loginUrl: 'https://sso.engine-academy.edu/login',
    });
    expect(accepted.request).toMatchObject({
      requestId,
      status: ACCEPTED,
      organizationId: accepted.organization!.id,
      decidedAt: expect.any(Date),
    });
    const found = await h.client.unary('searchProgramOrganizations', {
      programId,
      name: 'analytical engine',
      country: '',
      limit: 0,
    });
    expect(names(found.organizations)).toEqual(['Analytical Engine Academy']);
  });

  it("lets staff override the requester's school details", async () => {
    const requestId = await request(await newProgram(h.programs));
    const { organization } = await h.client.unary('acceptAddSchoolRequest', {
      requestId,
      organization: {
        externalKey: '',
        name: 'Engine Academy of Boston',
        type: 'UNIVERSITY',
        country: 'US',
        domains: ['engine.edu', 'cs.engine.edu'],
        city: '',
        state: '',
        loginUrl: '',
      },
    });
    expect(organization).toMatchObject({
      name: 'Engine Academy of Boston',
      domains: ['engine.edu', 'cs.engine.edu'],
    });
  });

  it('decides a request once: accept or decline again fails FAILED_PRECONDITION', async () => {
    const programId = await newProgram(h.programs);
    const toAccept = await request(programId);
    const toDecline = await request(programId);
    const organization = {
      externalKey: '',
      name: '',
      type: 'UNIVERSITY',
      country: '',
      domains: [],
      city: '',
      state: '',
      loginUrl: '',
    };
    await h.client.unary('acceptAddSchoolRequest', { requestId: toAccept, organization });
    const declined = await h.client.unary('declineAddSchoolRequest', {
      requestId: toDecline,
      reason: 'Not a school.',
    });
    expect(declined.request).toMatchObject({
      status: DECLINED,
      declineReason: 'Not a school.',
      organizationId: 0,
    });
    for (const call of [
      () => h.client.unary('acceptAddSchoolRequest', { requestId: toAccept, organization }),
      () => h.client.unary('declineAddSchoolRequest', { requestId: toAccept, reason: '' }),
      () => h.client.unary('acceptAddSchoolRequest', { requestId: toDecline, organization }),
      () => h.client.unary('declineAddSchoolRequest', { requestId: toDecline, reason: '' }),
    ]) {
      expect((await failure(call())).codeName).toBe('FAILED_PRECONDITION');
    }
    const stored = await h.db
      .table('organizations')
      .where({ external_key: `add-school:${toAccept}` })
      .count();
    expect(stored).toEqual([{ count: '1' }]);
  });

  it('refuses an acceptance without type or with a bad override, leaving the request pending', async () => {
    const requestId = await request(await newProgram(h.programs));
    const base = {
      externalKey: '',
      name: '',
      type: '',
      country: '',
      domains: [],
      city: '',
      state: '',
      loginUrl: '',
    };
    const noType = await failure(h.client.unary('acceptAddSchoolRequest', { requestId, organization: base }));
    expect([noType.codeName, noType.message]).toEqual(['INVALID_ARGUMENT', 'organization.type: is required']);
    const badCountry = await failure(
      h.client.unary('acceptAddSchoolRequest', {
        requestId,
        organization: { ...base, type: 'UNIVERSITY', country: 'XX' },
      }),
    );
    expect(badCountry.message).toBe('organization.country: "XX" is not an ISO 3166-1 alpha-2 country code');
    const badLoginUrl = await failure(
      h.client.unary('acceptAddSchoolRequest', {
        requestId,
        organization: { ...base, type: 'UNIVERSITY', loginUrl: 'http://sso.example.edu' },
      }),
    );
    expect([badLoginUrl.codeName, badLoginUrl.message]).toEqual([
      'INVALID_ARGUMENT',
      'organization.loginUrl: must be an absolute https URL (https://...)',
    ]);
    const longReason = await failure(
      h.client.unary('declineAddSchoolRequest', { requestId, reason: 'r'.repeat(501) }),
    );
    expect(longReason.codeName).toBe('INVALID_ARGUMENT');
    const [row] = await h.db.table('add_school_requests').where({ id: requestId }).select('status');
    expect(row).toEqual({ status: 'PENDING' });
  });

  it('answers NOT_FOUND for an unknown or malformed request id', async () => {
    const organization = {
      externalKey: '',
      name: '',
      type: 'UNIVERSITY',
      country: '',
      domains: [],
      city: '',
      state: '',
      loginUrl: '',
    };
    for (const requestId of ['0123456789abcdef01234567', 'nope']) {
      expect(
        (await failure(h.client.unary('acceptAddSchoolRequest', { requestId, organization }))).codeName,
      ).toBe('NOT_FOUND');
      expect(
        (await failure(h.client.unary('declineAddSchoolRequest', { requestId, reason: '' }))).codeName,
      ).toBe('NOT_FOUND');
    }
  });
});
