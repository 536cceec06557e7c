import {
  failure,
  importFixtures,
  names,
  newProgram,
  rules,
  startOrganizations,
  type Harness,
} from './support';

/** SearchAddSchoolByName / ByDomain: the spec's split result, its 25 cap, and every invalidRequest case. */
describe('add-school searches', () => {
  let h: Harness;
  let program: string;
  const byName = (schoolName: string, schoolCountry = 'US', programId = program) =>
    h.client.unary('searchAddSchoolByName', { programId, schoolName, schoolCountry }).then((r) => r.result!);
  const byDomain = (schoolDomain: string, schoolCountry = 'US', programId = program) =>
    h.client
      .unary('searchAddSchoolByDomain', { programId, schoolDomain, schoolCountry })
      .then((r) => r.result!);

  beforeAll(async () => {
    h = await startOrganizations();
    await importFixtures(h, [
      { name: 'Springfield University', domains: ['springfield.edu'] },
      { name: 'Springfield Elementary', type: 'K12', domains: ['elementary.springfield.k12.il.us'] },
      { name: 'Springfield College', country: 'CA', type: 'POST_SECONDARY' },
      { name: 'Stanford University', domains: ['stanford.edu'] },
      { name: 'Stanford Computer Science', domains: ['cs.stanford.edu'] },
      { name: 'Stanford Preparatory Academy', type: 'HIGH_SCHOOL', country: 'GB', domains: ['stanford.edu'] },
      ...Array.from({ length: 26 }, (_, i) => ({
        name: `Capital College ${String(i + 1).padStart(2, '0')}`,
      })),
      ...Array.from({ length: 25 }, (_, i) => ({ name: `Capital College ${i + 1}`, country: 'CA' })),
    ]);
    program = await newProgram(h.programs, { segment: 'student', countries: ['US', 'CA', 'GB'] });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('splits the matches of the country into eligible and ineligible, best first', async () => {
    const result = await byName('springfield');
    expect(result.errorIds).toEqual([]);
    expect(names(result.eligible)).toEqual(['Springfield University']);
    expect(names(result.ineligible)).toEqual(['Springfield Elementary']);
  });

  it("follows the program's rules for the split", async () => {
    const excluding = await newProgram(h.programs, {
      organizationRules: rules({ types: ['K12', 'UNIVERSITY'] }),
    });
    const result = await byName('springfield', 'US', excluding);
    expect(names(result.eligible)).toEqual(['Springfield Elementary', 'Springfield University']);
    expect(result.ineligible).toEqual([]);
  });

  it('returns 25 and tooManyOrganizationMatches when more match, and no error at exactly 25', async () => {
    const many = await byName('capital college');
    expect(many.errorIds).toEqual(['tooManyOrganizationMatches']);
    expect(many.eligible).toHaveLength(25);
    expect(many.eligible.map((o) => o.name)).not.toContain('Capital College 26');
    const exactly = await byName('capital college', 'CA');
    expect(exactly.errorIds).toEqual([]);
    expect(exactly.eligible).toHaveLength(25);
  });

  it('finds organizations by the host or a parent domain, the exact host first', async () => {
    const result = await byDomain('cs.stanford.edu');
    expect(names(result.eligible)).toEqual(['Stanford Computer Science', 'Stanford University']);
    expect(names((await byDomain('STANFORD.edu')).eligible)).toEqual(['Stanford University']);
    expect(names((await byDomain('stanford.edu', 'GB')).eligible)).toEqual(['Stanford Preparatory Academy']);
    expect(await byDomain('unknown.edu')).toEqual({ errorIds: [], eligible: [], ineligible: [] });
  });

  it('lists a domain of an organization the program does not accept as ineligible', async () => {
    const result = await byDomain('elementary.springfield.k12.il.us');
    expect(names(result.ineligible)).toEqual(['Springfield Elementary']);
    expect(result.eligible).toEqual([]);
  });

  it.each([
    ['a missing domain', { schoolDomain: '' }, 'schoolDomain: is required'],
    ['a missing country', { schoolCountry: '' }, 'schoolCountry: is required'],
    ['a missing program', { programId: '' }, 'programId: is required'],
    [
      'a domain without a period',
      { schoolDomain: 'stanford' },
      'schoolDomain: must contain a period (e.g. example.edu)',
    ],
    [
      'an unknown TLD',
      { schoolDomain: 'foo.notatld' },
      'schoolDomain: foo.notatld does not end in a known top-level domain',
    ],
    ['a URL', { schoolDomain: 'https://stanford.edu/' }, 'schoolDomain: must be a host name'],
    [
      'an invalid country',
      { schoolCountry: 'USA' },
      'schoolCountry: "USA" is not an ISO 3166-1 alpha-2 country code',
    ],
    [
      'a country the program does not take',
      { schoolCountry: 'FR' },
      'schoolCountry: FR is not eligible for this program',
    ],
    ['an invalid programId', { programId: 'xyz' }, 'programId: is not a valid program id'],
  ])('answers 400 invalidRequest for %s (domain search)', async (_case, overrides, message) => {
    const request = { programId: program, schoolDomain: 'stanford.edu', schoolCountry: 'US', ...overrides };
    const err = await failure(h.client.unary('searchAddSchoolByDomain', request));
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
    expect(err.message).toContain(message);
  });

  it.each([
    ['a missing name', { schoolName: '' }, 'schoolName: is required'],
    ['a missing country', { schoolCountry: '' }, 'schoolCountry: is required'],
    [
      'a country the program does not take',
      { schoolCountry: 'JP' },
      'schoolCountry: JP is not eligible for this program',
    ],
    ['an invalid programId', { programId: 'xyz' }, 'programId: is not a valid program id'],
  ])('answers 400 invalidRequest for %s (name search)', async (_case, overrides, message) => {
    const request = { programId: program, schoolName: 'stanford', schoolCountry: 'US', ...overrides };
    const err = await failure(h.client.unary('searchAddSchoolByName', request));
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
    expect(err.message).toContain(message);
  });

  it('answers 404 noProgram for a well-formed unknown program', async () => {
    for (const call of [
      () => byName('stanford', 'US', '0123456789abcdef01234567'),
      () => byDomain('stanford.edu', 'US', '0123456789abcdef01234567'),
    ]) {
      const err = await failure(call());
      expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noProgram']]);
    }
  });
});
