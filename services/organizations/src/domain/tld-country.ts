import { isCountry } from './countries';

/**
 * Geographic and US-only top-level domains of swot's academic list, by the country they belong to. A
 * generic one (com, org, net, academy...) says nothing about where a school is, so its entries are left
 * out of the seed rather than guessed.
 */
const COUNTRY_OF_TLD: Readonly<Record<string, string>> = {
  edu: 'US',
  gov: 'US',
  mil: 'US',
  uk: 'GB',
  cat: 'ES',
  eus: 'ES',
  gal: 'ES',
  barcelona: 'ES',
  madrid: 'ES',
  bzh: 'FR',
  corsica: 'FR',
  paris: 'FR',
  berlin: 'DE',
  hamburg: 'DE',
  koeln: 'DE',
  nrw: 'DE',
  bayern: 'DE',
  london: 'GB',
  scot: 'GB',
  wales: 'GB',
  cymru: 'GB',
  moscow: 'RU',
  quebec: 'CA',
  rio: 'BR',
  swiss: 'CH',
};

/** The ISO country of a top-level domain, or undefined when it names none. */
export function countryOfTld(tld: string): string | undefined {
  const known = COUNTRY_OF_TLD[tld];
  if (known) return known;
  const code = tld.toUpperCase();
  return /^[A-Z]{2}$/.test(code) && isCountry(code) ? code : undefined;
}
