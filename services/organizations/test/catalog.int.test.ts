import { accepts, type AcceptanceFilter } from '../src/domain/eligibility';
import { acceptanceSql } from '../src/repository/acceptance.sql';
import {
  Eligibility,
  failure,
  importFixtures,
  newProgram,
  rules,
  startOrganizations,
  type Harness,
  type Organization,
} from './support';

/** GetOrganization, CheckEligibility, and the acceptance rule agreeing in SQL and in TypeScript. */
describe('catalog reads and eligibility', () => {
  let h: Harness;
  let orgs: Organization[];
  let stanford: Organization, springfield: Organization, oxford: Organization;

  beforeAll(async () => {
    h = await startOrganizations();
    orgs = await importFixtures(h, [
      {
        name: 'Stanford University',
        domains: ['stanford.edu'],
        city: 'Stanford',
        state: 'CA',
        loginUrl: 'https://login.stanford.edu/idp/profile/SAML2/Redirect/SSO',
      },
      { name: 'Springfield Elementary', type: 'K12' },
      { name: 'University of Oxford', country: 'GB' },
      { name: 'Twin College', country: 'US', type: 'POST_SECONDARY' },
      { name: 'Twin College', country: 'CA', type: 'POST_SECONDARY' },
      { name: 'Army Base', type: 'MILITARY' },
      { name: 'City Hospital', type: 'MEDICAL', country: 'GB' },
    ]);
    [stanford, springfield, oxford] = orgs as [Organization, Organization, Organization];
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('GetOrganization returns every stored field, or NOT_FOUND noOrganization', async () => {
    expect((await h.client.unary('getOrganization', { organizationId: stanford.id })).organization).toEqual({
      id: stanford.id,
      name: 'Stanford University',
      type: 'UNIVERSITY',
      country: 'US',
      domains: ['stanford.edu'],
      city: 'Stanford',
      state: 'CA',
      externalKey: 'fixture:Stanford University:US',
      loginUrl: 'https://login.stanford.edu/idp/profile/SAML2/Redirect/SSO',
    });
    for (const organizationId of [999_999, 0, -1]) {
      const err = await failure(h.client.unary('getOrganization', { organizationId }));
      expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noOrganization']]);
    }
  });

  it('CheckEligibility answers eligible, ineligible or unknown, by id or exact name', async () => {
    const programId = await newProgram(h.programs, { segment: 'student', countries: ['US'] });
    const check = (organizationId: number, organizationName = '') =>
      h.client.unary('checkEligibility', { programId, organizationId, organizationName });
    expect(await check(stanford.id)).toEqual({
      eligibility: Eligibility.ELIGIBILITY_ELIGIBLE,
      organization: stanford,
    });
    expect((await check(springfield.id)).eligibility).toBe(Eligibility.ELIGIBILITY_INELIGIBLE); // K12
    expect((await check(oxford.id)).eligibility).toBe(Eligibility.ELIGIBILITY_INELIGIBLE); // GB
    expect(await check(999_999)).toEqual({
      eligibility: Eligibility.ELIGIBILITY_UNKNOWN,
      organization: undefined,
    });
    expect((await check(0, 'STANFORD  university')).organization?.id).toBe(stanford.id);
    expect((await check(0, 'Stanford')).eligibility).toBe(Eligibility.ELIGIBILITY_UNKNOWN); // not exact
    expect((await check(0, 'twin college')).eligibility).toBe(Eligibility.ELIGIBILITY_UNKNOWN); // two match
  });

  it('CheckEligibility fails noProgram for an unknown program, invalidRequest without an organization', async () => {
    const unknown = await failure(
      h.client.unary('checkEligibility', {
        programId: 'f'.repeat(24),
        organizationId: stanford.id,
        organizationName: '',
      }),
    );
    expect([unknown.codeName, unknown.errorIds]).toEqual(['NOT_FOUND', ['noProgram']]);
    const programId = await newProgram(h.programs);
    const none = await failure(
      h.client.unary('checkEligibility', { programId, organizationId: 0, organizationName: ' ' }),
    );
    expect([none.codeName, none.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
  });

  it('follows include and exclude lists', async () => {
    const programId = await newProgram(h.programs, {
      organizationRules: rules({ includeIds: [springfield.id], excludeIds: [stanford.id] }),
    });
    const check = (organizationId: number) =>
      h.client
        .unary('checkEligibility', { programId, organizationId, organizationName: '' })
        .then((r) => r.eligibility);
    expect(await check(springfield.id)).toBe(Eligibility.ELIGIBILITY_ELIGIBLE);
    expect(await check(stanford.id)).toBe(Eligibility.ELIGIBILITY_INELIGIBLE);
    expect(await check(oxford.id)).toBe(Eligibility.ELIGIBILITY_ELIGIBLE);
  });

  it('computes acceptance in SQL exactly as the domain rule does', async () => {
    const ids = orgs.map((o) => o.id);
    const filters: AcceptanceFilter[] = [
      { types: null, countries: null, includeIds: [], excludeIds: [] },
      { types: ['UNIVERSITY', 'POST_SECONDARY'], countries: null, includeIds: [], excludeIds: [] },
      { types: null, countries: ['GB'], includeIds: [], excludeIds: [] },
      { types: ['UNIVERSITY'], countries: ['US'], includeIds: [], excludeIds: [] },
      { types: ['UNIVERSITY'], countries: ['US'], includeIds: [ids[1]!, ids[6]!], excludeIds: [] },
      { types: ['UNIVERSITY'], countries: ['US'], includeIds: [], excludeIds: [ids[0]!] },
      { types: null, countries: null, includeIds: [ids[2]!], excludeIds: [ids[2]!, ids[3]!] },
      {
        types: ['MILITARY', 'MEDICAL'],
        countries: ['GB', 'US'],
        includeIds: [ids[4]!],
        excludeIds: [ids[5]!],
      },
      { types: [], countries: [], includeIds: [], excludeIds: [] }, // empty lists: nothing fits
    ];
    for (const filter of filters) {
      const where = acceptanceSql(filter);
      const rows = (
        await h.db.raw<{ rows: { id: string }[] }>(
          `select id from organizations where id = any(?::bigint[]) and ${where.text} order by id`,
          [ids, ...where.bindings],
        )
      ).rows.map((r) => Number(r.id));
      expect({ filter, accepted: rows }).toEqual({
        filter,
        accepted: orgs.filter((o) => accepts(filter, o)).map((o) => o.id),
      });
    }
  });
});
