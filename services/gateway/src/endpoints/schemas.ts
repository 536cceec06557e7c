import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { fullFormats } from 'ajv-formats/dist/formats';
import { patternMessage } from '../openapi/schemas/text';

/**
 * Zod building blocks of endpoint definitions, each written once: every one publishes the JSON Schema the
 * hand-written document stated, and refuses in the words the document's validator (Ajv) uses for it, in
 * Ajv's order (endpoints/body-check.ts words zod's issues; the endpoint tests compare both). Strings, lists,
 * enums and formats are here; numbers in schemas-numbers.ts, values that may be null in schemas-nullable.ts,
 * maps in schemas-maps.ts. A key set to undefined in `.meta()` is left out of the published schema.
 */

type Json = Record<string, unknown>;

/**
 * The JSON Schema zod publishes for `schema`, as it reads where the schema stands: named parts stay refs
 * (`#/$defs/<id>`, which endpoints/openapi.ts makes component refs; the document states them as components).
 */
export function jsonOf(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Json;
  delete json.$schema;
  delete json.$defs;
  return json;
}

/** A JSON type as Ajv reads it (strictNumbers: no Infinity, which JSON's 1e400 parses to). */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export function isOfType(value: unknown, type: JsonType): boolean {
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

/** A pattern's refusal: the words its helper registered (openapi/schemas/text.ts), else the pattern. */
export const refusalOf = (pattern: string) =>
  patternMessage(pattern) ?? `must match pattern ${JSON.stringify(pattern)}`;

/**
 * A string of a pattern that keeps its source text in the document, is matched with the `u` flag as Ajv
 * does, and refuses with the words its helper registered ("must not contain control characters").
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
const regexOf = (pattern: string) => [new RegExp(pattern, 'u'), refusalOf(pattern)] as const;

/**
 * A string of `min` to `max` characters (either may be left out), published as minLength/maxLength. The
 * bounds count code points, as JSON Schema (and Ajv) do, not UTF-16 units as zod's .min/.max would (an
 * emoji is one character, not two).
 */
export function codePointString(min: number | undefined, max: number | undefined) {
  return z
    .string()
    .check(
      z.superRefine((value: string, ctx) => {
        let length = 0;
        for (const _ of value) length += 1;
        if (max !== undefined && length > max)
          ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: value });
        else if (min !== undefined && length < min)
          ctx.addIssue({ code: 'too_small', origin: 'string', minimum: min, inclusive: true, input: value });
      }),
    )
    .meta({
      ...(min !== undefined ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
    });
}

/**
 * A string schema out of a hand-written `{ type: 'string', pattern, minLength?, maxLength? }` (the text
 * rules of openapi/schemas/text.ts): the length bounds in code points, checked before the pattern, as Ajv
 * does.
 */
export function fromStringSchema(schema: {
  readonly type: 'string';
  readonly pattern: string;
  readonly minLength?: number;
  readonly maxLength?: number;
}) {
  const { minLength, maxLength } = schema;
  const bounded =
    minLength !== undefined || maxLength !== undefined ? codePointString(minLength, maxLength) : z.string();
  return bounded.regex(...regexOf(schema.pattern)).meta({ pattern: schema.pattern });
}

/**
 * One of `values`, stated `{ type: 'string', enum }` and refused as Ajv refuses an enum whatever its size
 * ("must be one of CSV"): endpoints/body-check.ts words a z.enum of a single value as a constant ("must be
 * CSV"). A z.enum of more values is worded as Ajv words it, and is the simpler choice there.
 */
export const enumOf = (values: readonly [string, ...string[]]) =>
  z
    .string()
    .check(
      z.superRefine((value: string, ctx) => {
        if (!values.includes(value))
          ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}`, input: value });
      }),
    )
    .meta({ enum: [...values] });

/**
 * `uniqueItems: true`, refused as Ajv refuses it and in its words, "must NOT have duplicate items (items ## 1
 * and 0 are identical)". Ajv checks it after maxItems and the items, as zod runs a refinement: only when
 * nothing before it was refused. Ajv's loop depends on what it knows of the items' type: of a scalar type
 * (the items' own schema), it goes from the last item down and names the later of the two first ("1 and
 * 0"); of a type it does not know (items that are a named schema, a `$ref`), it compares every pair from the
 * last item down and names the earlier first ("0 and 1").
 */
export function uniqueItems<T extends z.ZodArray>(schema: T): T {
  const itemType = (jsonOf(schema).items as Json | undefined)?.type;
  const scalar =
    itemType === 'string' ? 'string' : itemType === 'integer' || itemType === 'number' ? 'number' : undefined;
  return schema
    .check(
      z.superRefine((items: unknown[], ctx) => {
        const pair = scalar !== undefined ? sameScalars(items, scalar) : samePair(items);
        if (pair !== undefined)
          ctx.addIssue({
            code: 'custom',
            message: `must NOT have duplicate items (items ## ${pair[0]} and ${pair[1]} are identical)`,
            input: items,
          });
      }),
    )
    .meta({ uniqueItems: true }) as T;
}

/** Ajv's loop for items of a scalar type: the first value seen twice from the end, later position first. */
function sameScalars(items: unknown[], type: 'string' | 'number'): [number, number] | undefined {
  const seen = new Map<unknown, number>();
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const item = items[i];
    if (typeof item !== type) continue;
    const j = seen.get(item);
    if (j !== undefined) return [j, i];
    seen.set(item, i);
  }
  return undefined;
}

/** Ajv's loop for items of a type it does not know: every pair from the end, earlier position first. */
function samePair(items: unknown[]): [number, number] | undefined {
  for (let i = items.length - 1; i >= 0; i -= 1)
    for (let j = i - 1; j >= 0; j -= 1) if (sameJson(items[i], items[j])) return [j, i];
  return undefined;
}

/** Ajv's equality of JSON values: by value, 0 and -0 alike. */
const sameJson = (a: unknown, b: unknown) =>
  a === b || (a !== null && typeof a === 'object' && isDeepStrictEqual(a, b));

/**
 * `oneOf: [{ required: [a] }, { required: [b] }, ...]` on an object: exactly one of the named properties.
 * Ajv checks it before anything else of the object, its type included (`required` holds for a value that is
 * not an object, so such a value passes every branch and is refused), hence a check ahead of the object's own:
 * "body must have exactly one of email, phoneNumber".
 */
export function exactlyOneOf<T extends z.ZodObject>(schema: T, keys: readonly (keyof z.infer<T> & string)[]) {
  return z.preprocess(
    (value, ctx) => {
      const present = isJsonObject(value)
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

/**
 * A named schema of another resource, by its component name (`{ $ref }`), inside a zod schema (a union, an
 * intersection): each resource's definitions state only their own schemas, which the endpoint tests compare
 * with what the hand-written files declared. `T` is the JSON its mapping writes. Only for answers: nothing
 * checks a value against it.
 */
export const componentRef = <T>(name: string) =>
  z.unknown().meta({ $ref: `#/components/schemas/${name}` }) as unknown as z.ZodType<T, T>;

/**
 * A value's `format` as Ajv checks it (ajv-formats' full mode, as the document's validator ran it): a
 * calendar day that exists (`date`), an RFC 3339 date-time with its offset (`date-time`).
 */
export const matchesFormat = (format: 'date' | 'date-time', value: string): boolean =>
  (fullFormats[format] as { validate: (value: string) => boolean }).validate(value);
