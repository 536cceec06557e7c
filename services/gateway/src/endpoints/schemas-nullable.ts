import { z } from 'zod';
import { isOfType, jsonOf, matchesFormat, refusalOf, type JsonType } from './schemas';

/**
 * Values that may be null, stated `type: [T, 'null']` beside the value's own keywords, as the hand-written
 * schemas stated them. Zod states a nullable value so by itself only when the value has no keyword of its
 * own (`z.string().nullable()`, `integer().nullable()`); otherwise it writes an anyOf of the value and null,
 * hence these. See endpoints/schemas.ts.
 */

/** The statement of `schema` or null; a key set to undefined is left out (zod's anyOf, unless the value has one). */
function nullableJson(schema: z.ZodType) {
  const json = jsonOf(schema);
  if (typeof json.type !== 'string') throw new Error('orNull takes a schema of one JSON type');
  return { ...json, anyOf: json.anyOf, type: [json.type as JsonType, 'null'] as const };
}

/**
 * `schema` or null. A value of another type is refused by `schema`, in its words: the verification steps
 * word their refusals themselves (endpoints/verification-step-check.ts), and answers are not checked.
 */
export function orNull<T extends z.ZodType>(schema: T) {
  return schema.nullable().meta(nullableJson(schema));
}

/**
 * `schema` or null in a body refused in Ajv's words: a value of neither type first, as Ajv checks the type
 * before the value's own keywords ("must be integer or null").
 */
export function orNullTypeFirst<T extends z.ZodType>(schema: T) {
  const json = nullableJson(schema);
  const [type] = json.type;
  return z
    .preprocess((value, ctx) => {
      if (value !== null && !isOfType(value, type))
        ctx.addIssue({ code: 'custom', message: `must be ${type} or null`, input: value });
      return value;
    }, schema.nullable())
    .meta(json);
}

/**
 * One of `values` or null, refused in Ajv's words: a value of neither type first, then one outside the
 * list (`enum` lists null too, and Ajv's refusal ends with its empty rendering: "must be one of a, b, ").
 */
export function oneOrNull<const T extends readonly string[]>(values: T, description: string) {
  return z
    .preprocess((value, ctx) => {
      const message =
        value === null
          ? undefined
          : typeof value !== 'string'
            ? 'must be string or null'
            : !(values as readonly string[]).includes(value)
              ? `must be one of ${[...values, ''].join(', ')}`
              : undefined;
      if (message !== undefined) ctx.addIssue({ code: 'custom', message, input: value });
      return value;
    }, z.enum(values).nullable())
    .meta({ anyOf: undefined, type: ['string', 'null'], enum: [...values, null], description });
}

/**
 * A string or null of `pattern` that is also a `format: date` or a `format: date-time` (anyOf), checked as
 * Ajv checks it: the type, the formats (ajv-formats' own checks), then the pattern.
 */
export function dateOrNull(pattern: string, description: string) {
  const regex = new RegExp(pattern, 'u');
  const message = refusalOf(pattern);
  return z
    .preprocess((value, ctx) => {
      const refusal =
        value === null
          ? undefined
          : typeof value !== 'string'
            ? 'must be string or null'
            : !matchesFormat('date', value) && !matchesFormat('date-time', value)
              ? 'must match format "date", or must match format "date-time"'
              : !regex.test(value)
                ? message
                : undefined;
      if (refusal !== undefined) ctx.addIssue({ code: 'custom', message: refusal, input: value });
      return value;
    }, z.string().nullable())
    .meta({
      anyOf: [{ format: 'date' }, { format: 'date-time' }],
      type: ['string', 'null'],
      pattern,
      description,
    });
}

/**
 * Null taken as not given, though the document states only the value itself: the marketplace token's two
 * names, which clients send side by side, the unused one null.
 */
export function nullTaken<T extends z.ZodType>(schema: T) {
  const json = jsonOf(schema);
  return schema.nullable().meta({ ...json, anyOf: json.anyOf });
}
