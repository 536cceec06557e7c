import { invalidArgument } from '@eligo/runtime';

export interface ConversionInput {
  amount: string;
  currency: string;
  tags: readonly string[];
}

export interface Conversion {
  /** A decimal with at most 4 fraction digits, as Postgres numeric(20,4) keeps it. */
  amount: string;
  currency: string;
  tags: string[];
}

// Below 2^53 / 10^4, so the amount survives the rounding to 4 places exactly.
export const MAX_AMOUNT = 1e11;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 64;
/**
 * Distinct tags a verification keeps over all its conversions (the report's conversionTags). Past it, tags the
 * verification does not have yet are dropped rather than the conversion refused: a client that sends the same
 * few tags every time never notices, and one that sends new ones every time still has its amounts counted.
 */
export const MAX_TAGS_PER_VERIFICATION = 100;
const DEFAULT_CURRENCY = 'USD';
/** Unicode control characters (C0, DEL, C1) and the line/paragraph separators. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// ISO 4217 as ICU knows it (Node's full-icu): no list to keep up to date by hand.
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

const bad = (message: string) => invalidArgument(message);

/**
 * A conversion as stored: an amount >= 0 (the spec's 400 "Invalid amount" otherwise), an ISO 4217 currency
 * (USD when none is given), and tags, trimmed, unique and bounded.
 */
export function validateConversion(input: ConversionInput): Conversion {
  const text = input.amount.trim();
  const value = Number(text);
  if (!text || !Number.isFinite(value) || value < 0 || value >= MAX_AMOUNT) throw bad('Invalid amount');
  const currency = (input.currency.trim() || DEFAULT_CURRENCY).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency) || !CURRENCIES.has(currency)) throw bad('Invalid currency');
  const tags = [...new Set(input.tags.map((t) => t.trim()))];
  if (tags.length > MAX_TAGS) throw bad(`Invalid tags: at most ${MAX_TAGS}`);
  // Characters as a person counts them (code points), and no control characters: a tag is shown in reports
  // (CSV), and Postgres refuses a NUL outright.
  if (tags.some((t) => t.length === 0 || [...t].length > MAX_TAG_LENGTH || CONTROL_CHARACTERS.test(t)))
    throw bad(`Invalid tags: each 1 to ${MAX_TAG_LENGTH} characters, without control characters`);
  // Rounded half away from zero to 4 places: the column's scale, said rather than left to the database.
  return { amount: (Math.round(value * 10_000) / 10_000).toFixed(4), currency, tags };
}
