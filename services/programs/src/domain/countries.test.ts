import { normaliseCountries } from './countries';

describe('normaliseCountries', () => {
  it.each<[string[], string[], string[]]>([
    [['US', 'ca', 'Gb'], ['US', 'CA', 'GB'], []],
    [[], [], []],
    [['ZZ'], [], ['"ZZ" is not an ISO 3166-1 alpha-2 country code']],
    [['USA'], [], ['"USA" is not an ISO 3166-1 alpha-2 country code']],
    [['u'], [], ['"u" is not an ISO 3166-1 alpha-2 country code']],
    [['us', 'US'], ['US', 'US'], ['US is listed twice']],
  ])('%j -> %j with problems %j', (input, output, problems) => {
    const reported: string[] = [];
    expect(normaliseCountries(input, (p) => reported.push(p))).toEqual(output);
    expect(reported).toEqual(problems);
  });

  it('accepts at most 250 entries', () => {
    const reported: string[] = [];
    normaliseCountries(
      Array.from({ length: 251 }, () => 'US'),
      (p) => reported.push(p),
    );
    expect(reported[0]).toBe('at most 250 countries');
  });
});
