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
    .regex(...regexOf(pattern))
    .meta({ pattern });

/**
 * The pattern matched with the `u` flag, and its refusal. The document keeps the pattern's text as written
 * (`.meta({ pattern })`): zod would publish the RegExp's `source`, which escapes `/` as `\/`.
 */
const regexOf = (pattern: string) =>
  [
    new RegExp(pattern, 'u'),
    patternMessage(pattern) ?? `must match pattern ${JSON.stringify(pattern)}`,
  ] as const;

/**
 * A string schema out of a hand-written `{ type: 'string', pattern, minLength?, maxLength? }`. The length
 * bounds count code points, as JSON Schema (and Ajv) do, not UTF-16 units as zod's .min/.max would (an emoji
 * is one character, not two); they are published as written, and checked before the pattern, as Ajv does.
 */
export function fromStringSchema(schema: {
  readonly type: 'string';
  readonly pattern: string;
  readonly minLength?: number;
  readonly maxLength?: number;
}) {
  const { minLength, maxLength } = schema;
  let result = z.string();
  if (minLength !== undefined || maxLength !== undefined)
    result = result.check(codePointLength(minLength, maxLength)).meta({
      ...(minLength !== undefined ? { minLength } : {}),
      ...(maxLength !== undefined ? { maxLength } : {}),
    });
  return result.regex(...regexOf(schema.pattern)).meta({ pattern: schema.pattern });
}

/** Refuses a string of fewer than `min` or more than `max` code points, in Ajv's words (endpoints/body-check.ts). */
function codePointLength(min: number | undefined, max: number | undefined) {
  return z.superRefine<string>((value, ctx) => {
    let length = 0;
    for (const _ of value) length += 1;
    if (max !== undefined && length > max)
      ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: value });
    else if (min !== undefined && length < min)
      ctx.addIssue({ code: 'too_small', origin: 'string', minimum: min, inclusive: true, input: value });
  });
}

/**
 * `uniqueItems: true` for an array of strings: refused, as Ajv refuses it and in its words, when two string
 * items are equal ("must NOT have duplicate items (items ## 2 and 0 are identical)"). Ajv checks it after
 * maxItems and the items, as zod runs a refinement: only when nothing before it was refused.
 */
export function uniqueStrings<T extends z.ZodArray>(schema: T): T {
  return schema
    .check(
      z.superRefine((items: unknown[], ctx) => {
        // Ajv's loop: from the last item down, the first string seen twice names both positions.
        const seen = new Map<string, number>();
        for (let i = items.length - 1; i >= 0; i -= 1) {
          const item = items[i];
          if (typeof item !== 'string') continue;
          const j = seen.get(item);
          if (j !== undefined) {
            ctx.addIssue({
              code: 'custom',
              message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
              input: items,
            });
            return;
          }
          seen.set(item, i);
        }
      }),
    )
    .meta({ uniqueItems: true }) as T;
}

/**
 * `oneOf: [{ required: [a] }, { required: [b] }, ...]` on an object: exactly one of the named properties.
 * Ajv checks it before anything else of the object, its type included (`required` holds for a value that is
 * not an object, so such a value passes every branch and is refused), hence a check ahead of the object's own:
 * "body must have exactly one of email, phoneNumber".
 */
export function exactlyOneOf<T extends z.ZodObject>(schema: T, keys: readonly (keyof z.infer<T> & string)[]) {
  return z.preprocess(
    (value, ctx) => {
      const present =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? keys.filter((key) => Object.prototype.hasOwnProperty.call(value, key)).length
          : keys.length;
      if (present !== 1)
        ctx.addIssue({
          code: 'custom',
          message: `must have exactly one of ${keys.join(', ')}`,
          input: value,
        });
      return value;
    },
    schema.meta({ oneOf: keys.map((key) => ({ required: [key] })) }),
  );
}
