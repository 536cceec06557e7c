import { invalidArgument, type DomainError } from '@eligo/runtime';

const MAX_REPORTED = 20;

/**
 * Validation collects every problem of a request before failing, so an integrator fixes a bad body in one
 * round trip; each problem names the field it concerns ("subSegments: veteran is not a sub-segment of ...").
 */
export class Problems {
  private readonly list: string[] = [];

  add(field: string, message: string): void {
    this.list.push(`${field}: ${message}`);
  }

  /**
   * Throws INVALID_ARGUMENT invalidRequest when anything was recorded. The message travels in a gRPC trailer
   * (a few KB at most), so a request with thousands of bad entries names the first ones and counts the rest.
   */
  throwIfAny(): void {
    if (this.list.length === 0) return;
    const shown = this.list.slice(0, MAX_REPORTED);
    const more = this.list.length - shown.length;
    throw invalidRequest(shown.join('; ') + (more > 0 ? `; and ${more} more problems` : ''));
  }
}

export function invalidRequest(message: string): DomainError {
  return invalidArgument(message, { errorIds: ['invalidRequest'] });
}

/** Throws at the first problem found; for single-field inputs. */
export function requireValid(field: string, problem: string | undefined): void {
  if (problem !== undefined) throw invalidRequest(`${field}: ${problem}`);
}

/** Unicode control characters (C0, DEL, C1) and the line/paragraph separators. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
