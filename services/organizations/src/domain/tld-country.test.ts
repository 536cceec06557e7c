import { countryOfTld } from './tld-country';

describe('countryOfTld', () => {
  it.each([
    ['uk', 'GB'],
    ['de', 'DE'],
    ['edu', 'US'],
    ['mil', 'US'],
    ['cat', 'ES'],
    ['bzh', 'FR'],
    ['koeln', 'DE'],
    ['scot', 'GB'],
    ['quebec', 'CA'],
    ['swiss', 'CH'],
    ['com', undefined],
    ['org', undefined],
    ['eu', undefined],
    ['su', undefined],
  ])('%s -> %s', (tld, country) => {
    expect(countryOfTld(tld)).toBe(country);
  });
});
