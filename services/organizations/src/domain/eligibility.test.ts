import {
  acceptanceFilter,
  accepts,
  acceptsCountry,
  kindFilter,
  type AcceptanceFilter,
  type ProgramRules,
} from './eligibility';

function program(
  overrides: Partial<ProgramRules> & Partial<ProgramRules['organizationRules']>,
): ProgramRules {
  const { types = [], countries: ruleCountries, includeIds = [], excludeIds = [] } = overrides;
  return {
    programId: 'p'.repeat(24),
    segment: overrides.segment ?? 'student',
    countries: overrides.countries ?? [],
    organizationRules: { types, countries: ruleCountries ?? [], includeIds, excludeIds },
  };
}

describe('acceptanceFilter', () => {
  it.each<[string, ProgramRules, AcceptanceFilter]>([
    [
      'student defaults',
      program({ segment: 'student' }),
      {
        types: ['UNIVERSITY', 'POST_SECONDARY', 'HIGH_SCHOOL'],
        countries: null,
        includeIds: [],
        excludeIds: [],
      },
    ],
    [
      'teacher defaults',
      program({ segment: 'teacher' }),
      {
        types: ['K12', 'HIGH_SCHOOL', 'POST_SECONDARY', 'UNIVERSITY'],
        countries: null,
        includeIds: [],
        excludeIds: [],
      },
    ],
    [
      'member defaults',
      program({ segment: 'member' }),
      { types: ['MEMBERSHIP', 'NON_PROFIT'], countries: null, includeIds: [], excludeIds: [] },
    ],
    [
      'no restriction for seniors',
      program({ segment: 'senior' }),
      { types: null, countries: null, includeIds: [], excludeIds: [] },
    ],
    [
      'rule types win over the segment',
      program({ segment: 'student', types: ['CORPORATE'] }),
      { types: ['CORPORATE'], countries: null, includeIds: [], excludeIds: [] },
    ],
    [
      'program countries when the rules name none',
      program({ segment: 'military', countries: ['US', 'CA'] }),
      { types: ['MILITARY'], countries: ['US', 'CA'], includeIds: [], excludeIds: [] },
    ],
  ])('%s', (_name, rules, expected) => {
    expect(acceptanceFilter(rules)).toEqual(expected);
  });

  it('prefers rule countries over program countries', () => {
    const filter = acceptanceFilter({
      ...program({ countries: ['US'] }),
      organizationRules: { types: [], countries: ['GB'], includeIds: [], excludeIds: [] },
    });
    expect(filter.countries).toEqual(['GB']);
  });
});

describe('accepts', () => {
  const filter: AcceptanceFilter = {
    types: ['UNIVERSITY'],
    countries: ['US'],
    includeIds: [7, 9],
    excludeIds: [3, 9],
  };
  it.each([
    ['type and country fit', { id: 1, type: 'UNIVERSITY', country: 'US' }, true],
    ['wrong type', { id: 1, type: 'K12', country: 'US' }, false],
    ['wrong country', { id: 1, type: 'UNIVERSITY', country: 'GB' }, false],
    ['excluded although it fits', { id: 3, type: 'UNIVERSITY', country: 'US' }, false],
    ['included although it does not fit', { id: 7, type: 'K12', country: 'FR' }, true],
    ['excluded wins over included', { id: 9, type: 'UNIVERSITY', country: 'US' }, false],
  ])('%s -> %s', (_name, org, expected) => {
    expect(accepts(filter, org)).toBe(expected);
  });

  it('accepts everything without restrictions', () => {
    const open: AcceptanceFilter = { types: null, countries: null, includeIds: [], excludeIds: [] };
    expect(accepts(open, { id: 1, type: 'OTHER', country: 'JP' })).toBe(true);
    expect(acceptsCountry(open, 'JP')).toBe(true);
    expect(acceptsCountry(filter, 'JP')).toBe(false);
    expect(acceptsCountry(filter, 'US')).toBe(true);
  });
});

describe('kindFilter', () => {
  it.each([
    ['STUDENT', ['UNIVERSITY', 'POST_SECONDARY', 'HIGH_SCHOOL']],
    ['TEACHER', ['K12', 'HIGH_SCHOOL', 'POST_SECONDARY', 'UNIVERSITY']],
    ['MILITARY', ['MILITARY']],
  ] as const)('%s searches %j', (kind, types) => {
    expect(kindFilter(kind)).toEqual({ types, countries: null, includeIds: [], excludeIds: [] });
  });
});
