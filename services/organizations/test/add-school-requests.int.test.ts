import { organizationsV1 } from '@eligo/proto';
import { AddSchoolRequestStatus, failure, newProgram, startOrganizations, type Harness } from './support';

const PENDING = AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_PENDING;
const DECLINED = AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_DECLINED;

/** RequestAddSchool and the staff's list, with a daily limit of 3 per program. */
describe('add-school requests', () => {
  let h: Harness;
  const person = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'Ada.Lovelace@Example.org',
    schoolName: 'Analytical Engine Academy',
    schoolDomain: 'engine-academy.edu',
    schoolCountry: 'us',
    trackingId: '',
  };
  const request = (programId: string, overrides: Partial<organizationsV1.RequestAddSchoolRequest> = {}) =>
    h.client.unary('requestAddSchool', { programId, ...person, ...overrides }).then((r) => r.requestId);
  const list = (req: Partial<organizationsV1.ListAddSchoolRequestsRequest>) =>
    h.client.unary('listAddSchoolRequests', { status: 0, programId: '', pageSize: 0, pageToken: '', ...req });

  beforeAll(async () => {
    h = await startOrganizations({ ELIGO_ORGANIZATIONS_ADD_SCHOOL_DAILY_LIMIT: '3' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('stores a pending request that staff read back decrypted and normalised', async () => {
    const programId = await newProgram(h.programs);
    const requestId = await request(programId);
    expect(requestId).toMatch(/^[0-9a-f]{24}$/);
    const { requests, nextPageToken } = await list({ programId });
    expect(nextPageToken).toBe('');
    expect(requests).toEqual([
      {
        requestId,
        programId,
        status: PENDING,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada.lovelace@example.org',
        schoolName: 'Analytical Engine Academy',
        schoolDomain: 'engine-academy.edu',
        schoolCountry: 'US',
        createdAt: expect.any(Date),
        decidedAt: undefined,
        organizationId: 0,
        declineReason: '',
        trackingId: '',
      },
    ]);
  });

  it("keeps the client's tracking id with the request and shows it to staff", async () => {
    const programId = await newProgram(h.programs);
    const requestId = await request(programId, { trackingId: 'crm-ticket 42/β' });
    expect((await h.db('add_school_requests').where({ id: requestId }).first()).tracking_id).toBe(
      'crm-ticket 42/β',
    );
    const { requests } = await list({ programId });
    expect(requests.map((r) => [r.requestId, r.trackingId])).toEqual([[requestId, 'crm-ticket 42/β']]);
  });

  it("keeps the requester's name and email encrypted at rest", async () => {
    const requestId = await request(await newProgram(h.programs));
    const result = await h.db.raw<{ rows: { text: string }[] }>(
      'select t::text as text from organizations.add_school_requests t where id = ?',
      [requestId],
    );
    // Ciphertexts (\\x...) and the row's ids show as hex, whose letters a-f can spell "ada" by chance (a CI
    // run's request id did: 9498c0dc9ada...): only the rest is searched.
    const text = result.rows[0]!.text.toLowerCase()
      .replace(/\\+x[0-9a-f]+/g, '')
      .replace(/\b[0-9a-f]{12,}\b/g, '');
    expect(result.rows[0]!.text).toMatch(/\\x01[0-9a-f]+/);
    expect(text).toContain('analytical engine academy');
    for (const pii of ['ada', 'lovelace', 'example.org']) expect(text).not.toContain(pii);
  });

  it.each([
    ['an invalid email', { email: 'ada@' }, ['invalidEmail'], 'email: is not a valid email address'],
    ['a missing first name', { firstName: ' ' }, ['invalidRequest'], 'firstName: is required'],
    ['a missing school name', { schoolName: '' }, ['invalidRequest'], 'schoolName: is required'],
    [
      'a domain without a period',
      { schoolDomain: 'academy' },
      ['invalidRequest'],
      'schoolDomain: must contain a period',
    ],
    [
      'an unknown TLD',
      { schoolDomain: 'foo.notatld' },
      ['invalidRequest'],
      'does not end in a known top-level domain',
    ],
    [
      'an ineligible country',
      { schoolCountry: 'FR' },
      ['invalidRequest'],
      'schoolCountry: FR is not eligible',
    ],
    [
      'an invalid programId',
      { programId: 'abc' },
      ['invalidRequest'],
      'programId: is not a valid program id',
    ],
    [
      'a tracking id with a control character',
      { trackingId: 'a\u0000b' },
      ['invalidRequest'],
      'trackingId: must not contain control characters',
    ],
    [
      'a tracking id over 256 characters',
      { trackingId: 'x'.repeat(257) },
      ['invalidRequest'],
      'trackingId: must be at most 256 characters',
    ],
  ])('refuses %s with 400 and stores nothing', async (_case, overrides, errorIds, message) => {
    const programId = await newProgram(h.programs, { countries: ['US'] });
    const err = await failure(request(programId, overrides));
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', errorIds]);
    expect(err.message).toContain(message);
    expect((await list({ programId })).requests).toEqual([]);
  });

  it('answers 404 noProgram for an unknown program', async () => {
    const err = await failure(request('0123456789abcdef01234567'));
    expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noProgram']]);
  });

  it('answers 429 tooManyAddSchoolRequests past the daily limit of the program only', async () => {
    const programId = await newProgram(h.programs);
    await failure(request(programId, { email: 'bad' })); // a refused request does not count
    for (let i = 0; i < 3; i++) await request(programId);
    const err = await failure(request(programId));
    expect([err.codeName, err.errorIds]).toEqual(['RESOURCE_EXHAUSTED', ['tooManyAddSchoolRequests']]);
    expect((await list({ programId })).requests).toHaveLength(3);
    await expect(request(await newProgram(h.programs))).resolves.toMatch(/^[0-9a-f]{24}$/);
  });

  it('never passes the limit under concurrent requests', async () => {
    const programId = await newProgram(h.programs);
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => request(programId)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect((await list({ programId })).requests).toHaveLength(3);
    const counts = await h.db
      .table('add_school_daily_counts')
      .where({ program_id: programId })
      .select('count');
    expect(counts).toEqual([{ count: 3 }]);
  });

  it('pages newest first with an opaque token, and filters by status', async () => {
    const programId = await newProgram(h.programs);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await request(programId));
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct created_at, so the order is known
    }
    const first = await list({ programId, pageSize: 2 });
    expect(first.requests.map((r) => r.requestId)).toEqual([ids[2], ids[1]]);
    expect(first.nextPageToken).not.toBe('');
    const second = await list({ programId, pageSize: 2, pageToken: first.nextPageToken });
    expect(second.requests.map((r) => r.requestId)).toEqual([ids[0]]);
    expect(second.nextPageToken).toBe('');

    await h.client.unary('declineAddSchoolRequest', { requestId: ids[1]!, reason: '' });
    expect((await list({ programId, status: DECLINED })).requests.map((r) => r.requestId)).toEqual([ids[1]]);
    expect((await list({ programId, status: PENDING })).requests.map((r) => r.requestId)).toEqual([
      ids[2],
      ids[0],
    ]);

    for (const bad of [{ pageToken: 'garbage' }, { pageSize: 501 }, { programId: 'nope' }]) {
      const err = await failure(list(bad));
      expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
    }
  });
});
