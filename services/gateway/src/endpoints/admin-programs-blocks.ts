import { z } from 'zod';
import { fullFormats } from 'ajv-formats/dist/formats';
import { patternMessage } from '../openapi/schemas/text';

/**
 * Zod building blocks of the program settings (endpoints/admin-programs-input.ts) that endpoints/schemas.ts
 * lacks: each publishes the JSON Schema the hand-written schema stated, and refuses in the words the OpenAPI
 * validator (Ajv) used, checking in Ajv's order (a value's type, then its own keywords, then its members).
 * A key set to undefined in `.meta()` is left out of the published schema.
 */
type Json = Record<string, unknown>;
type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/** The JSON Schema zod publishes for `schema`; refs to named schemas stay, and become components. */
function jsonOf(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Json;
  delete json.$schema;
  delete json.$defs;
  return json;
}

/** Ajv's reading of a JSON Schema type (strictNumbers: no Infinity, which JSON's 1e400 parses to). */
function isOfType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> => isOfType(value, 'object');

/**
 * `type: [T, 'null']`: the schema or null, published as the schema's own keywords with null among its types
 * (zod would write an anyOf of the two), and a value of neither type refused first, as Ajv words it: "must
 * be integer or null".
 */
export function orNull<T extends z.ZodType>(schema: T) {
  const json = jsonOf(schema);
  const type = json.type as JsonType;
  return z
    .preprocess((value, ctx) => {
      if (value !== null && !isOfType(value, type))
        ctx.addIssue({ code: 'custom', message: `must be ${type} or null`, input: value });
      return value;
    }, schema.nullable())
    .meta({ ...json, anyOf: undefined, type: [type, 'null'] });
}

/** One of `values` or null (`enum` lists null too, and Ajv's refusal ends with its empty rendering). */
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
 * An integer from `min` to `max`, refused as Ajv refuses it: a value that is not an integer first, then the
 * bound it passes (z.int() would name its own safe-integer bound first for 1e22, not `max`).
 */
export const boundedInteger = (min: number, max: number) =>
  z
    .preprocess((value, ctx) => {
      // Left out, the number's own refusal says the property is required.
      if (value !== undefined && !Number.isInteger(value))
        ctx.addIssue({ code: 'custom', message: 'must be integer', input: value });
      return value;
    }, z.number().min(min).max(max))
    .meta({ type: 'integer' });

/**
 * A required one of `values`: a string first, so that a body without it is told it is required (a bare
 * z.enum refuses a missing value as a wrong one).
 */
export const requiredEnum = <const T extends readonly string[]>(values: T) =>
  z
    .string()
    .pipe(z.enum(values))
    .meta({ enum: [...values] });

const formats = {
  date: (fullFormats.date as { validate: (value: string) => boolean }).validate,
  'date-time': (fullFormats['date-time'] as { validate: (value: string) => boolean }).validate,
};

/** A pattern's refusal: the words its helper registered (openapi/schemas/text.ts), else the pattern. */
const refusalOf = (pattern: string) =>
  patternMessage(pattern) ?? `must match pattern ${JSON.stringify(pattern)}`;

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
            : !formats.date(value) && !formats['date-time'](value)
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

/** What a map's keys must be: of a pattern, or one of a list. */
export type KeyRule = { pattern: string } | { enum: readonly string[] };

/**
 * An object used as a map (`propertyNames`, `additionalProperties: <schema>`, `maxProperties`), checked in
 * Ajv's order: its type, its size, every key, then the values ("body.theme.intl.messages key \"a b\" must
 * be 1 to 100 letters, digits, _ . or -").
 */
export function stringMap<V extends z.ZodType>(options: {
  key: KeyRule;
  value: V;
  maxProperties?: number;
  description: string;
}) {
  const { key, maxProperties } = options;
  const keyRefusal =
    'pattern' in key
      ? (name: string) => (new RegExp(key.pattern, 'u').test(name) ? undefined : refusalOf(key.pattern))
      : (name: string) => (key.enum.includes(name) ? undefined : `must be one of ${key.enum.join(', ')}`);
  return z
    .preprocess(
      (value, ctx) => {
        const refuse = (message: string) => ctx.addIssue({ code: 'custom', message, input: value });
        if (!isJsonObject(value)) return void refuse('must be object');
        const names = Object.keys(value);
        if (maxProperties !== undefined && names.length > maxProperties)
          return void refuse(`must NOT have more than ${maxProperties} properties`);
        for (const name of names) {
          const refusal = keyRefusal(name);
          if (refusal !== undefined) return void refuse(`key ${JSON.stringify(name)} ${refusal}`);
        }
        return value;
      },
      z.record(z.string(), options.value),
    )
    .meta({
      ...(maxProperties !== undefined ? { maxProperties } : {}),
      propertyNames: 'pattern' in key ? { pattern: key.pattern } : { enum: [...key.enum] },
      description: options.description,
    });
}

/**
 * `uniqueItems: true` for an array whose items are a named schema (`$ref`): Ajv does not know their type
 * there, so it compares every pair, from the last item down, and names the earlier of the two first
 * ("items ## 0 and 1 are identical", where uniqueStrings says "1 and 0"). The items are checked before.
 */
export function uniqueNamedItems<T extends z.ZodArray>(schema: T): T {
  return schema
    .check(
      z.superRefine((items: unknown[], ctx) => {
        for (let i = items.length - 1; i >= 0; i -= 1)
          for (let j = i - 1; j >= 0; j -= 1)
            if (items[i] === items[j]) {
              ctx.addIssue({
                code: 'custom',
                message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
                input: items,
              });
              return;
            }
      }),
    )
    .meta({ uniqueItems: true }) as T;
}

/**
 * `uniqueItems: true` for an array of numbers, as endpoints/schemas.ts's uniqueStrings for strings: refused
 * in Ajv's words, naming the two positions as Ajv's loop finds them (from the last item down).
 */
export function uniqueNumbers<T extends z.ZodArray>(schema: T): T {
  return schema
    .check(
      z.superRefine((items: unknown[], ctx) => {
        const seen = new Map<number, number>();
        for (let i = items.length - 1; i >= 0; i -= 1) {
          const item = items[i];
          if (typeof item !== 'number') continue;
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
