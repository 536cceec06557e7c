import { countries } from 'countries-list';
import { anyCaseOneOf, described } from './text';

/** ISO 3166-1 alpha-2 codes, from the list the programs and organizations services check against. */
export const COUNTRY_CODES: readonly string[] = Object.keys(countries).sort();

/**
 * An ISO 3166-1 alpha-2 code in any case (the services upper-case it), as a pattern rather than an enum of
 * every spelling: `us`, `US` and `Us` are all accepted, `AA` is not.
 */
export const COUNTRY_PATTERN = anyCaseOneOf(COUNTRY_CODES, 'must be an ISO 3166-1 alpha-2 country code');

/** The same, or empty (a query parameter that forms send empty for "any"). */
export const COUNTRY_OR_EMPTY_PATTERN = described(
  COUNTRY_PATTERN.replace('^(?:', '^(?:|'),
  'must be an ISO 3166-1 alpha-2 country code, or empty',
);

export const countryCode = (description: string) =>
  ({ type: 'string', pattern: COUNTRY_PATTERN, description, examples: ['US'] }) as const;
