import {
  failure,
  importFixtures,
  names,
  newProgram,
  OrganizationKind,
  rules,
  startOrganizations,
  type Harness,
} from './support';

/** SearchProgramOrganizations: ranking, folding, filters and the program's rules, through the gRPC API. */
describe('SearchProgramOrganizations', () => {
  let h: Harness;
  let student: string;
  const search = (
    name: string,
    extra: { name?: string; programId?: string; country?: string; limit?: number } = {},
  ) =>
    h.client
      .unary('searchProgramOrganizations', {
        programId: extra.programId ?? student,
        name,
        country: extra.country ?? '',
        limit: extra.limit ?? 0,
      })
      .then((r) => r.organizations);

  beforeAll(async () => {
    h = await startOrganizations();
    await importFixtures(h, [
      { name: 'University of Oxford', country: 'GB', domains: ['ox.ac.uk'] },
      { name: 'Oxfort Institute', country: 'GB', type: 'POST_SECONDARY' },
      { name: 'Oxford Brookes University', country: 'GB', domains: ['brookes.ac.uk'] },
      { name: 'Oxford', country: 'GB', type: 'POST_SECONDARY' },
      { name: 'Oxford College of Emory University', country: 'US', type: 'POST_SECONDARY' },
      { name: 'Cambridge University', country: 'GB' },
      { name: 'Stanford University', domains: ['stanford.edu'] },
      { name: 'Boston State College', type: 'POST_SECONDARY' },
      { name: 'Universität Zürich', country: 'CH', domains: ['uzh.ch'] },
      { name: 'Zurich International School', country: 'CH', type: 'HIGH_SCHOOL' },
      { name: 'Springfield Elementary', type: 'K12' },
      { name: 'Springfield University' },
      { name: 'Fort Springfield Army Base', type: 'MILITARY' },
    ]);
    student = await newProgram(h.programs, { segment: 'student' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('ranks an exact name, then name starts, then names containing it, then similar words', async () => {
    expect(names(await search('oxford', { country: 'GB' }))).toEqual([
      'Oxford',
      'Oxford Brookes University',
      'University of Oxford',
      'Oxfort Institute',
    ]);
  });

  it('finds a misspelled name by similarity', async () => {
    expect(names(await search('stanfrod'))).toEqual(['Stanford University']);
    // Every word must come close to a word of the name; the closer whole name ranks first.
    expect(names(await search('univercity of oxfort', { country: 'GB' }))).toEqual([
      'University of Oxford',
      'Oxford Brookes University',
    ]);
  });

  it('does not fill the results with names sharing only a common word', async () => {
    expect(names(await search('stanford university'))).toEqual(['Stanford University']);
  });

  it('ignores case and accents, in the query and in the names', async () => {
    expect(names(await search('zurich'))).toEqual(['Zurich International School', 'Universität Zürich']);
    expect(names(await search('ZÜRICH'))).toEqual(['Zurich International School', 'Universität Zürich']);
    expect(names(await search('universitat zurich'))).toEqual(['Universität Zürich']);
    expect(names(await search('STANFORD university'))).toEqual(['Stanford University']);
  });

  it('matches name starts only for one or two characters', async () => {
    expect(names(await search('st'))).toEqual(['Stanford University']);
    expect(names(await search('sta'))).toEqual(['Stanford University', 'Boston State College']);
  });

  it('filters by country when asked', async () => {
    expect(names(await search('oxford', { country: 'us' }))).toEqual(['Oxford College of Emory University']);
    expect(names(await search('oxford'))).toContain('Oxford College of Emory University');
  });

  it('returns at most `limit` results', async () => {
    expect(await search('oxford', { limit: 2 })).toHaveLength(2);
  });

  it("keeps to the segment's organization types when the program names none", async () => {
    const teacher = await newProgram(h.programs, { segment: 'teacher' });
    const military = await newProgram(h.programs, { segment: 'military' });
    const senior = await newProgram(h.programs, { segment: 'senior' });
    expect(names(await search('springfield'))).toEqual(['Springfield University']);
    // Equally close and as long: the older organization first.
    expect(names(await search('springfield', { programId: teacher }))).toEqual([
      'Springfield Elementary',
      'Springfield University',
    ]);
    expect(names(await search('springfield', { programId: military }))).toEqual([
      'Fort Springfield Army Base',
    ]);
    expect(await search('springfield', { programId: senior })).toHaveLength(3);
  });

  it("applies the program's types, countries, included and excluded organizations", async () => {
    const all = await search('springfield', {
      programId: await newProgram(h.programs, { segment: 'senior' }),
    });
    const elementary = all.find((o) => o.name === 'Springfield Elementary')!;
    const university = all.find((o) => o.name === 'Springfield University')!;
    const k12Only = await newProgram(h.programs, { organizationRules: rules({ types: ['K12'] }) });
    expect(names(await search('springfield', { programId: k12Only }))).toEqual(['Springfield Elementary']);

    const gbRules = await newProgram(h.programs, { organizationRules: rules({ countries: ['GB'] }) });
    expect(names(await search('university', { programId: gbRules }))).toEqual([
      'University of Oxford',
      'Cambridge University',
      'Oxford Brookes University',
    ]);
    const chProgram = await newProgram(h.programs, { countries: ['CH'] });
    // Only Swiss organizations; "universität" is close enough to "university" for the similarity tier.
    expect(names(await search('university', { programId: chProgram }))).toEqual(['Universität Zürich']);
    expect(names(await search('zurich', { programId: chProgram }))).toEqual([
      'Zurich International School',
      'Universität Zürich',
    ]);

    const included = await newProgram(h.programs, {
      organizationRules: rules({ includeIds: [elementary.id], excludeIds: [university.id] }),
    });
    expect(names(await search('springfield', { programId: included }))).toEqual(['Springfield Elementary']);
  });

  it('answers 404 noProgram (SEM body) for an unknown or malformed program', async () => {
    for (const programId of ['0123456789abcdef01234567', 'not-a-program']) {
      const err = await failure(search('oxford', { programId }));
      expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noProgram']]);
    }
  });

  it('serves the deprecated searches by kind, without a program', async () => {
    const byKind = (kind: number, name: string) =>
      h.client
        .unary('searchOrganizationsByKind', { kind, name, country: '', limit: 0 })
        .then((r) => names(r.organizations));
    expect(await byKind(OrganizationKind.ORGANIZATION_KIND_MILITARY, 'springfield')).toEqual([
      'Fort Springfield Army Base',
    ]);
    expect(await byKind(OrganizationKind.ORGANIZATION_KIND_STUDENT, 'springfield')).toEqual([
      'Springfield University',
    ]);
    expect(await byKind(OrganizationKind.ORGANIZATION_KIND_TEACHER, 'springfield')).toEqual([
      'Springfield Elementary',
      'Springfield University',
    ]);
    const err = await failure(byKind(OrganizationKind.ORGANIZATION_KIND_UNSPECIFIED, 'springfield'));
    expect([err.codeName, err.errorIds, err.message]).toEqual([
      'INVALID_ARGUMENT',
      ['invalidRequest'],
      'kind: must be STUDENT, MILITARY or TEACHER',
    ]);
  });

  it('finds nothing for a name without a letter or digit (it used to be refused, which no schema can say)', async () => {
    expect(await search('--', {})).toEqual([]);
    expect(await search('§!?', { country: 'US' })).toEqual([]);
  });

  it.each([
    [{ name: '' }, 'name: is required'],
    [{ name: 'oxford', country: 'XX' }, 'country: "XX" is not an ISO 3166-1 alpha-2 country code'],
    [{ name: 'oxford', limit: 101 }, 'limit: must be between 1 and 100 (0 = 25)'],
  ])('refuses %j with invalidRequest', async (request, message) => {
    const err = await failure(search(request.name, request));
    expect([err.codeName, err.errorIds, err.message]).toEqual([
      'INVALID_ARGUMENT',
      ['invalidRequest'],
      message,
    ]);
  });
});
