import { codeProblem } from './codes';
import { CONTROL_CHARACTERS, Problems, requireValid } from './invalid';

/** One AddRewardCodes call is one multi-row insert; this bounds its size (and its bind parameters). */
export const MAX_CODES_PER_CALL = 10_000;
export const MAX_VERIFICATION_ID_LENGTH = 64;

/**
 * Codes to add to a pool: trimmed (uploads come from spreadsheets), each a valid code, duplicates inside the
 * request dropped (the pool keeps every code once; the store skips those it already has).
 */
export function normaliseRewardCodes(codes: readonly string[]): string[] {
  const problems = new Problems();
  if (codes.length === 0) problems.add('codes', 'at least one code is required');
  if (codes.length > MAX_CODES_PER_CALL)
    problems.add('codes', `at most ${MAX_CODES_PER_CALL} codes per call (got ${codes.length})`);
  problems.throwIfAny();
  const unique = new Set<string>();
  codes.forEach((raw, index) => {
    const code = raw.trim();
    const problem = codeProblem(code);
    if (problem) problems.add(`codes[${index}]`, problem);
    else unique.add(code);
  });
  problems.throwIfAny();
  return [...unique];
}

/** The verification a pool code is handed to (an id of the verification service). */
export function validateVerificationId(value: string): string {
  let problem: string | undefined;
  if (value.length === 0) problem = 'is required';
  else if (value.length > MAX_VERIFICATION_ID_LENGTH)
    problem = `must be at most ${MAX_VERIFICATION_ID_LENGTH} characters`;
  else if (CONTROL_CHARACTERS.test(value)) problem = 'must not contain control characters';
  requireValid('verificationId', problem);
  return value;
}
