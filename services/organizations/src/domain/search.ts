import { normaliseCountry } from './countries';
import { fold } from './fold';
import { charLength, Problems } from './problems';

export const MAX_QUERY_LENGTH = 200;
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
/**
 * Substring and similarity matching go through the trigram index, which needs at least three characters to
 * narrow anything down; shorter queries match names by their start only ("st" finds "Stanford ...").
 */
export const MIN_SUBSTRING_QUERY_LENGTH = 3;

/** A name query: 1..200 characters as typed; returns its folded form (empty when no letter or digit is left). */
export function checkNameQuery(problems: Problems, field: string, raw: string): string {
  const trimmed = raw.trim();
  if (trimmed.length === 0) {
    problems.add(field, 'is required');
    return '';
  }
  if (charLength(trimmed) > MAX_QUERY_LENGTH) {
    problems.add(field, `must be at most ${MAX_QUERY_LENGTH} characters`);
    return '';
  }
  // A query of only punctuation or symbols folds to nothing: it matches no name (an empty answer, not a
  // refusal: nothing the OpenAPI document could state tells a client in advance which texts fold away).
  return fold(trimmed);
}

/** 0 = the default (25); otherwise 1..100. */
export function checkLimit(problems: Problems, limit: number): number {
  if (limit === 0) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    problems.add('limit', `must be between 1 and ${MAX_LIMIT} (0 = ${DEFAULT_LIMIT})`);
  return limit;
}

/** An ISO country filter; '' = none (null). */
export function checkOptionalCountry(problems: Problems, field: string, raw: string): string | null {
  if (raw.trim() === '') return null;
  return checkCountry(problems, field, raw);
}

/** A required ISO 3166-1 alpha-2 code; returns it upper case. */
export function checkCountry(problems: Problems, field: string, raw: string): string {
  if (raw.trim() === '') {
    problems.add(field, 'is required');
    return '';
  }
  const code = normaliseCountry(raw);
  if (code === undefined)
    problems.add(field, `${JSON.stringify(raw)} is not an ISO 3166-1 alpha-2 country code`);
  return code ?? '';
}
