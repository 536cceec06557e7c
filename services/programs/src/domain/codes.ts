import { CONTROL_CHARACTERS } from './invalid';
import { charLength } from './text';

/**
 * Reward and consolation codes are shown to a person and typed into a checkout: 1..128 characters (code
 * points, as names count them and as the OpenAPI document's pattern does), no whitespace (a code with a space
 * is nearly always a paste error) and no control characters.
 */
export const MAX_CODE_LENGTH = 128;

export function codeProblem(code: string): string | undefined {
  if (code.length === 0) return 'must not be empty';
  if (charLength(code) > MAX_CODE_LENGTH) return `must be at most ${MAX_CODE_LENGTH} characters`;
  if (/\s/u.test(code) || CONTROL_CHARACTERS.test(code))
    return 'must not contain whitespace or control characters';
  return undefined;
}
