/**
 * The two-letter codes USPS accepts as the state of a US address: the 50 states, the District of Columbia,
 * the inhabited territories (AS GU MP PR VI) and the armed forces codes (AA AE AP), since service members
 * overseas have US addresses under them.
 */
// prettier-ignore
export const US_STATE_CODES: ReadonlySet<string> = new Set([
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY',
  'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND',
  'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  'DC',
  'AS', 'GU', 'MP', 'PR', 'VI',
  'AA', 'AE', 'AP',
]);

/**
 * Countries whose addresses use the US state codes: the US itself and the territories, which have ISO
 * country codes of their own but USPS addresses.
 */
export const US_ADDRESS_COUNTRIES: ReadonlySet<string> = new Set(['US', 'AS', 'GU', 'MP', 'PR', 'VI', 'UM']);

export function isUsStateCode(value: string): boolean {
  return US_STATE_CODES.has(value);
}
