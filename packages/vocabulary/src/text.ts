/** Unicode control characters (C0, DEL, C1) and the line/paragraph separators. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Length in characters as a person counts them (code points), not UTF-16 units, so a name in a script
 * outside the Basic Multilingual Plane is not cut at half the length a Latin one gets.
 */
export function charLength(value: string): number {
  return [...value].length;
}

/** Free text a person typed (a city, a street): given, at most `max` characters, one line. */
export function isPlainText(value: string, max: number): boolean {
  return value.length > 0 && charLength(value) <= max && !CONTROL_CHARACTERS.test(value);
}
