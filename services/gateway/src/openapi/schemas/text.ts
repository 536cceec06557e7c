/**
 * Patterns of free text, the same rules the services apply (e.g. services/programs/src/domain/text.ts), so
 * that the document says exactly what is accepted: no control characters (C0, DEL, C1) and no line or
 * paragraph separators, and for names no text that is empty once trimmed (JavaScript's String.prototype.trim,
 * whose whitespace is listed here rather than written \s: \s differs between JavaScript and other regex
 * engines that read the document, Python's among them).
 *
 * Each helper registers what its pattern means, so that a refusal says "must not contain control characters"
 * instead of quoting the pattern (endpoints/schemas.ts reads `patternMessage`).
 */
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029';
const SPACE = '\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** For character classes of other patterns: what CONTROL and SPACE above hold (each escaped for a class). */
export const CONTROL_CHARACTER_CLASS = CONTROL;
export const TRIMMED_SPACE_CLASS = SPACE;

const messages = new Map<string, string>();

/** Records what a pattern means for the validation message, and returns the pattern. */
export function described(pattern: string, message: string): string {
  messages.set(pattern, message);
  return pattern;
}

/** What a refused value of this pattern lacks, in words; undefined for patterns no helper made. */
export function patternMessage(pattern: string): string | undefined {
  return messages.get(pattern);
}

/** A pattern: no control characters anywhere. */
export const NO_CONTROL_CHARACTERS = described(`^[^${CONTROL}]*$`, 'must not contain control characters');

/** Text without control characters, of at most `max` characters (code points). */
export const plainText = (max: number, min = 0) =>
  ({ type: 'string', minLength: min, maxLength: max, pattern: NO_CONTROL_CHARACTERS }) as const;

/**
 * Control characters but the tab and the line breaks (LF, CR): long texts a person writes on several lines
 * (a reason, a message, a PEM key) may have those, never the others.
 */
const CONTROL_BUT_LINE_BREAKS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u2028\\u2029';

/** A pattern: no control characters but tabs and line breaks. */
export const NO_CONTROL_BUT_LINE_BREAKS = described(
  `^[^${CONTROL_BUT_LINE_BREAKS}]*$`,
  'must not contain control characters other than tabs and line breaks',
);

/** Text of several lines: at most `max` characters, no control characters but tabs and line breaks. */
export const multilineText = (max: number, min = 0) =>
  ({ type: 'string', minLength: min, maxLength: max, pattern: NO_CONTROL_BUT_LINE_BREAKS }) as const;

/**
 * Text the service trims: surrounding whitespace is dropped; what remains is 1 to `max` characters without
 * control characters. The length is in the pattern, since maxLength would count the whitespace too.
 */
export const trimmedName = (max: number) => {
  const inner = max <= 1 ? '' : `([^${CONTROL}]{0,${max - 2}}[^${SPACE}${CONTROL}])?`;
  return {
    type: 'string',
    pattern: described(
      `^[${SPACE}]*[^${SPACE}${CONTROL}]${inner}[${SPACE}]*$`,
      `must be 1 to ${max} characters once trimmed, without control characters`,
    ),
  } as const;
};

/** A pattern (without anchors) that the service accepts with surrounding whitespace, which it trims. */
export const trimmedPattern = (inner: string, message: string) =>
  described(`^[${SPACE}]*(?:${inner})[${SPACE}]*$`, message);

/** A pattern matching exactly one of `codes` (ASCII letters) in any case: `us`, `US`, `Us` for US. */
export const anyCaseOneOf = (codes: readonly string[], message: string) =>
  described(
    `^(?:${codes.map((code) => [...code].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join('')).join('|')})$`,
    message,
  );
