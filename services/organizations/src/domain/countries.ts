import { countries } from 'countries-list';

/** ISO 3166-1 alpha-2 codes (from countries-list), upper case. */
const CODES: ReadonlySet<string> = new Set(Object.keys(countries));

/** The upper-case code when `raw` (any case, surrounding spaces allowed) is an ISO 3166-1 alpha-2 code. */
export function normaliseCountry(raw: string): string | undefined {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && CODES.has(code) ? code : undefined;
}

export function isCountry(code: string): boolean {
  return CODES.has(code);
}
