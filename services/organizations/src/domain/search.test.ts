import { checkLimit, checkNameQuery, checkOptionalCountry } from './search';
import { Problems } from './problems';

function run<T>(fn: (p: Problems) => T): { value: T; message: string } {
  const problems = new Problems();
  const value = fn(problems);
  return { value, message: problems.message() };
}

describe('search inputs', () => {
  it.each([
    ['  Zürich ', 'zurich', ''],
    ['ST', 'st', ''],
    ['', '', 'name: is required'],
    ['  ', '', 'name: is required'],
    ['---', '', ''],
    ['n'.repeat(201), '', 'name: must be at most 200 characters'],
  ])('name %j -> %j %j', (raw, folded, message) => {
    expect(run((p) => checkNameQuery(p, 'name', raw))).toEqual({ value: folded, message });
  });

  it.each([
    [0, 25, ''],
    [1, 1, ''],
    [100, 100, ''],
    [101, 101, 'limit: must be between 1 and 100 (0 = 25)'],
    [-1, -1, 'limit: must be between 1 and 100 (0 = 25)'],
  ])('limit %d -> %d %j', (limit, value, message) => {
    expect(run((p) => checkLimit(p, limit))).toEqual({ value, message });
  });

  it.each([
    ['', null, ''],
    ['us', 'US', ''],
    ['USA', '', 'country: "USA" is not an ISO 3166-1 alpha-2 country code'],
  ])('country %j -> %j %j', (raw, value, message) => {
    expect(run((p) => checkOptionalCountry(p, 'country', raw))).toEqual({ value, message });
  });
});
