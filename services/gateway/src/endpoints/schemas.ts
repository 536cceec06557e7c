import { z } from 'zod';
import { patternMessage } from '../openapi/schemas/text';

/**
 * Zod building blocks of endpoint definitions that publish the same JSON Schema as the hand-written
 * schemas (openapi/schemas/text.ts): a pattern keeps its source text in the document, is matched with the
 * `u` flag as Ajv does, and refuses with the words its helper registered ("must not contain control
 * characters") rather than the pattern.
 */
export const patterned = (pattern: string) =>
  z
    .string()
    .regex(
      new RegExp(pattern, 'u'),
      patternMessage(pattern) ?? `must match pattern ${JSON.stringify(pattern)}`,
    );

/** A string schema out of a hand-written `{ type: 'string', pattern, minLength?, maxLength? }`. */
export function fromStringSchema(schema: {
  readonly type: 'string';
  readonly pattern: string;
  readonly minLength?: number;
  readonly maxLength?: number;
}) {
  let result = z.string();
  if (schema.minLength !== undefined) result = result.min(schema.minLength);
  if (schema.maxLength !== undefined) result = result.max(schema.maxLength);
  return result.regex(
    new RegExp(schema.pattern, 'u'),
    patternMessage(schema.pattern) ?? `must match pattern ${JSON.stringify(schema.pattern)}`,
  );
}
