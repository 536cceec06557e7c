import { readQuery } from '../../test/query-reader';
import { expressPath } from './define';
import {
  organizationEndpoints,
  requestAddSchool,
  searchOrganizationsStudent,
  searchProgramOrganizations,
} from './organization';

describe('the organization searches', () => {
  // The messages of the hand-written readers (validation/query-params.ts) the route used before.
  it.each<[Record<string, unknown>, unknown]>([
    [{ name: 'Stanford' }, { name: 'Stanford' }],
    [
      { name: ' MIT ', country: 'us', limit: '10' },
      { name: ' MIT ', country: 'US', limit: 10 },
    ],
    [{ name: 'x', country: '' }, { name: 'x' }],
    [{ name: 'x'.repeat(1000) }, { name: 'x'.repeat(1000) }],
    [{}, 'query.name is required'],
    [{ name: '' }, 'query.name is required'],
    [{ name: ['a', 'b'] }, 'query.name must be given once, as a plain value'],
    [{ name: 'x'.repeat(1001) }, 'query.name must be at most 1000 characters'],
    [{ name: 'a\u0000b' }, 'query.name must not contain control characters'],
    [{ name: 'x', country: 'ZZ' }, 'query.country: "ZZ" is not an ISO 3166-1 alpha-2 country code'],
    [{ name: 'x', limit: '0' }, 'query.limit must be an integer from 1 to 100'],
    [{ name: 'x', limit: '101' }, 'query.limit must be an integer from 1 to 100'],
    [{ name: 'x', limit: '' }, 'query.limit must be an integer from 1 to 100'],
    [{ name: 'x', limit: '1.5' }, 'query.limit must be an integer from 1 to 100'],
  ])('read %j as the route did: %j', (query, expected) => {
    expect(readQuery(searchProgramOrganizations, query)).toEqual(expected);
  });

  it('share one query for all four searches', () => {
    const searches = organizationEndpoints.filter((endpoint) => endpoint.method === 'get');
    expect(searches).toHaveLength(4);
    for (const search of searches) expect(search.query).toBe(searchProgramOrganizations.query);
  });

  it('register the Express form of their paths', () => {
    expect(expressPath(searchProgramOrganizations)).toBe('/program/:programId/organization');
    expect(expressPath(searchOrganizationsStudent)).toBe('/organization/student');
    expect(expressPath(requestAddSchool)).toBe('/organization/addSchool');
  });
});
