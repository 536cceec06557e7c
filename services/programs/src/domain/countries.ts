import { countries } from 'countries-list';

/** ISO 3166-1 alpha-2 codes (from countries-list), upper case. */
const CODES: ReadonlySet<string> = new Set(Object.keys(countries));

export const MAX_COUNTRIES = 250;

/**
 * Normalises a list of country codes (lower case accepted, stored upper case) and reports bad or repeated
 * entries. Returns the normalised list, meaningful only when no problem was reported.
 */
export function normaliseCountries(input: readonly string[], report: (problem: string) => void): string[] {
  if (input.length > MAX_COUNTRIES) report(`at most ${MAX_COUNTRIES} countries`);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of input) {
    const code = raw.toUpperCase();
    if (!/^[A-Z]{2}$/.test(code) || !CODES.has(code)) {
      report(`${JSON.stringify(raw)} is not an ISO 3166-1 alpha-2 country code`);
      continue;
    }
    if (seen.has(code)) report(`${code} is listed twice`);
    seen.add(code);
    out.push(code);
  }
  return out;
}
