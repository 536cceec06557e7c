import { z } from 'zod';
import { isId, ID_PATTERN } from '@eligo/vocabulary';
import { invalidRequest } from '../errors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { COUNTRY_CODES } from '../openapi/schemas/countries';
import type { EndpointDefinition } from './define';

/**
 * Query parameters of endpoint definitions (`query` of endpoints/define.ts). A builder gives one parameter:
 * the zod schema of its value, whose meta is what the document states of it (the parameter's description,
 * `allowEmptyValue`, and the JSON Schema of the value as a client sends it), and how the raw text is read.
 * `requestQuery` reads and checks them; a refusal is 400 invalidRequest naming the parameter ("query.limit
 * must be an integer from 1 to 100").
 */
interface Reading {
  /** Repeated (`?a=1&a=2`) and comma-separated values make one list. */
  list: boolean;
  /** An empty value (`country=`, as forms send "any") is as if the parameter were left out. */
  emptyIsAbsent: boolean;
  /** The value out of the raw text; a value it cannot read is left as text, for the schema to refuse. */
  read: (raw: string) => unknown;
}

const readings = new WeakMap<z.ZodType, Reading>();

function parameter<T extends z.ZodType>(schema: T, reading: Partial<Reading>): T {
  readings.set(schema, { list: false, emptyIsAbsent: false, read: (raw) => raw, ...reading });
  return schema;
}

/** Free text: bounded (UTF-16 units, as before), no control characters once trimmed. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export interface TextOptions {
  description: string;
  maxLength: number;
  /** The JSON Schema the document states (e.g. the trimmed name of the body schemas), if not a bounded string. */
  schema?: Readonly<Record<string, unknown>>;
  /** Also held to this pattern (e.g. plainText: no control characters, surrounding ones included). */
  pattern?: { source: string; message: string };
}

/** A text parameter; an empty value is as if left out (so a required one is "required"). */
export function text(options: TextOptions) {
  const { maxLength, pattern } = options;
  const schema = z
    .string()
    .check(
      z.superRefine((value: string, ctx) => {
        const message =
          value.length > maxLength
            ? `must be at most ${maxLength} characters`
            : CONTROL_CHARACTERS.test(value.trim())
              ? 'must not contain control characters'
              : pattern && !new RegExp(pattern.source, 'u').test(value)
                ? pattern.message
                : undefined;
        if (message !== undefined) ctx.addIssue({ code: 'custom', message, input: value });
      }),
    )
    .meta({
      description: options.description,
      ...(options.schema ?? { type: 'string', maxLength }),
    });
  return parameter(schema, { emptyIsAbsent: true });
}

/** ISO 3166-1 alpha-2 in any case, read upper case (the catalog's form); empty means any country. */
export function country(options: { description: string; schema: Readonly<Record<string, unknown>> }) {
  const schema = z
    .string()
    .check(
      z.superRefine((value: string, ctx) => {
        if (!COUNTRY_CODES.includes(value.toUpperCase()))
          ctx.addIssue({
            code: 'custom',
            message: `${JSON.stringify(value)} is not an ISO 3166-1 alpha-2 country code`,
            input: value,
            params: { separator: ':' },
          });
      }),
    )
    .transform((value) => value.toUpperCase())
    .meta({ description: options.description, allowEmptyValue: true, ...options.schema });
  return parameter(schema, { emptyIsAbsent: true });
}

/** An integer from `min` to `max`; `fallback` is the document's `default` (the route applies its own). */
export function integer(options: { description?: string; min: number; max: number; fallback?: number }) {
  const { min, max } = options;
  const message = `must be an integer from ${min} to ${max}`;
  const schema = z
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message })
    .meta({
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.fallback !== undefined ? { default: options.fallback } : {}),
    });
  return parameter(schema, { read: (raw) => (/^\d{1,9}$/.test(raw) ? Number(raw) : raw) });
}

/** One of `values`. */
export function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  options: { description?: string } = {},
) {
  const schema = z
    .enum(values, { error: `must be one of ${values.join(', ')}` })
    .meta(options.description !== undefined ? { description: options.description } : {});
  return parameter(schema, {});
}

/** A 24-hex id. */
export function hexId(options: { description?: string } = {}) {
  const schema = z
    .string()
    .check(
      z.superRefine((value: string, ctx) => {
        if (!isId(value))
          ctx.addIssue({ code: 'custom', message: 'must be 24 lowercase hex characters', input: value });
      }),
    )
    .meta({
      ...(options.description !== undefined ? { description: options.description } : {}),
      type: 'string',
      pattern: ID_PATTERN,
    });
  return parameter(schema, {});
}

/**
 * Ids given as repeated parameters (?programIds=a&programIds=b), comma-separated (?programIds=a,b) or both;
 * empty entries are skipped and duplicates dropped.
 */
export function hexIdList(options: { description: string; maxItems: number }) {
  const { maxItems } = options;
  const schema = z
    .array(z.string())
    .check(
      z.superRefine((ids: string[], ctx) => {
        const message =
          ids.length === 0
            ? 'must name at least one id (leave it out to mean all)'
            : !ids.every((id) => isId(id))
              ? 'must be ids of 24 lowercase hex characters'
              : ids.length > maxItems
                ? `must have at most ${maxItems} ids`
                : undefined;
        if (message !== undefined) ctx.addIssue({ code: 'custom', message, input: ids });
      }),
    )
    .meta({
      description: options.description,
      type: 'array',
      maxItems,
      items: { type: 'string', pattern: ID_PATTERN },
      style: 'form',
      explode: true,
    });
  return parameter(schema, { list: true });
}

/**
 * Middleware: the definition's query parameters read and checked, in their order; the values (absent ones
 * left out) go to `res.locals.query` (Express 5's req.query is read-only). With `strictQuery` an unknown
 * parameter or an empty value is refused first (a typo such as `?stauts=PENDING` would list everything).
 */
export function requestQuery(definition: EndpointDefinition): RequestHandler {
  const shape = (definition.query?.shape ?? {}) as Record<string, z.ZodType>;
  const names = Object.keys(shape);
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      res.locals.query = readQuery(req.query, shape, definition.strictQuery === true, names);
      next();
    } catch (error) {
      next(error);
    }
  };
}

function readQuery(
  query: Request['query'],
  shape: Record<string, z.ZodType>,
  strict: boolean,
  names: readonly string[],
): Record<string, unknown> {
  if (strict)
    for (const [name, value] of Object.entries(query)) {
      if (!names.includes(name))
        throw invalidRequest(`query has unexpected parameter ${name} (allowed: ${names.join(', ')})`);
      if (value === '') throw invalidRequest(`query.${name} must not be empty (leave it out instead)`);
    }
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const reading = readings.get(unwrapped(schema));
    if (!reading) throw new Error(`query.${name} was not built by endpoints/query.ts`);
    const value = rawValue(query[name], name, reading);
    if (value === undefined) {
      if (!schema.safeParse(undefined).success) throw invalidRequest(`query.${name} is required`);
      continue;
    }
    const checked = schema.safeParse(value);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const separator = (issue as { params?: { separator?: string } }).params?.separator ?? ' ';
      throw invalidRequest(`query.${name}${separator === ':' ? ': ' : ' '}${issue.message}`);
    }
    values[name] = checked.data;
  }
  return values;
}

function rawValue(raw: unknown, name: string, reading: Reading): unknown {
  if (raw === undefined) return undefined;
  if (reading.list) {
    const items = Array.isArray(raw) ? raw : [raw];
    if (!items.every((item): item is string => typeof item === 'string'))
      throw invalidRequest(`query.${name} must be plain values`);
    return [...new Set(items.flatMap((item) => item.split(',')).map((item) => item.trim()))].filter(Boolean);
  }
  if (typeof raw !== 'string') throw invalidRequest(`query.${name} must be given once, as a plain value`);
  if (raw === '' && reading.emptyIsAbsent) return undefined;
  return reading.read(raw);
}

/** The parameter's own schema under `.optional()` (a builder's schema is what the readings know). */
function unwrapped(schema: z.ZodType): z.ZodType {
  let at = schema;
  for (;;) {
    const inner = (at as { _zod: { def: { innerType?: z.ZodType } } })._zod.def.innerType;
    if (inner === undefined) return at;
    at = inner;
  }
}
