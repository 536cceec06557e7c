import { CONTROL_CHARACTERS } from './invalid';

/** Length in characters as a person counts them (code points), not UTF-16 units. */
export function charLength(value: string): number {
  return [...value].length;
}

/**
 * A display name (account, token, program): trimmed, 1..max characters, no control characters (they break
 * CSV reports and log lines). Returns the trimmed name and the problem, if any.
 */
export function checkName(value: string, max: number): { name: string; problem?: string } {
  const name = value.trim();
  if (name.length === 0) return { name, problem: 'is required' };
  if (charLength(name) > max) return { name, problem: `must be at most ${max} characters` };
  if (CONTROL_CHARACTERS.test(name)) return { name, problem: 'must not contain control characters' };
  return { name };
}
