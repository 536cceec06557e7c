import { invalidArgument, type DomainError } from '@eligo/runtime';

/** The errorIds this service raises for bad input (a subset of @eligo/vocabulary's ERROR_IDS). */
export type InputErrorId = 'invalidRequest' | 'invalidEmail';

const MAX_REPORTED = 20;

/**
 * Validation collects every problem of a request before failing, so that a caller fixes a bad body in one
 * round trip; each problem names its field ("schoolDomain: must contain a period").
 */
export class Problems {
  private readonly list: { text: string; errorId: InputErrorId }[] = [];

  /** `prefix` names the enclosing field of nested input ("organization." -> "organization.type: ..."). */
  constructor(private readonly prefix = '') {}

  add(field: string, message: string, errorId: InputErrorId = 'invalidRequest'): void {
    this.list.push({ text: `${this.prefix}${field}: ${message}`, errorId });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  /** The problems as one message (for import rejections, which are reported, not thrown). */
  message(): string {
    return this.list.map((p) => p.text).join('; ');
  }

  /** Throws INVALID_ARGUMENT with the errorIds of the problems found (invalidEmail for a bad email...). */
  throwIfAny(): void {
    if (this.list.length === 0) return;
    const shown = this.list.slice(0, MAX_REPORTED).map((p) => p.text);
    const more = this.list.length - shown.length;
    const errorIds = [...new Set(this.list.map((p) => p.errorId))];
    throw invalidArgument(shown.join('; ') + (more > 0 ? `; and ${more} more problems` : ''), { errorIds });
  }
}

export function invalidRequest(message: string): DomainError {
  return invalidArgument(message, { errorIds: ['invalidRequest'] });
}

/** Unicode control characters (C0, DEL, C1) and the line/paragraph separators. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Length in characters as a person counts them (code points), not UTF-16 units. */
export function charLength(value: string): number {
  return [...value].length;
}

/**
 * A required free-text field (names, school name): trimmed, 1..max characters, no control characters (they
 * break CSV exports and log lines). Reports to `problems` and returns the trimmed value.
 */
export function requiredText(problems: Problems, field: string, raw: string, max: number): string {
  const value = raw.trim();
  if (value.length === 0) problems.add(field, 'is required');
  else if (charLength(value) > max) problems.add(field, `must be at most ${max} characters`);
  else if (CONTROL_CHARACTERS.test(value)) problems.add(field, 'must not contain control characters');
  return value;
}

/** An optional free-text field: '' when absent, else like requiredText. */
export function optionalText(problems: Problems, field: string, raw: string, max: number): string {
  return raw.trim() === '' ? '' : requiredText(problems, field, raw, max);
}
