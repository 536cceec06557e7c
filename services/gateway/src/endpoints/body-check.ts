import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { invalidRequest } from '../errors';
import { fieldPath } from './field-path';

export type BodyCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Checks a body against its definition's zod schema. A refusal is one sentence, in the words a JSON Schema
 * validator (Ajv) uses for the schema the document states, naming the field as it appears in the body
 * (the endpoint tests compare both, test/document-validator.ts):
 * "body.currency must be string", "body has unexpected property price (allowed: amount, currency, tags)".
 */
export function checkBody<S extends z.ZodType>(schema: S, value: unknown): BodyCheck<z.infer<S>> {
  const result = schema.safeParse(value);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problem: describeIssues(schema, result.error.issues, value) };
}

/**
 * Middleware: the body checked against `schema`, a refusal 400 invalidRequest naming the field; the
 * checked value replaces req.body.
 * Without a JSON body (express.json leaves it undefined) the request is refused, unless `optional`.
 */
export function requestBody(schema: z.ZodType, options: { optional?: boolean } = {}): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (req.body === undefined) {
      if (options.optional) return next();
      return next(invalidRequest('body is required (Content-Type: application/json)'));
    }
    const checked = checkBody(schema, req.body);
    if (!checked.ok) return next(invalidRequest(checked.problem));
    req.body = checked.value;
    next();
  };
}

/**
 * One issue decides, as with Ajv, which checks a value's own keywords (type, required, additionalProperties,
 * maxItems) before it goes into its properties and items, in their order, and stops at the first failure:
 * the first issue (in zod's order, which follows the properties and items) of those no other issue is above.
 * Zod reports a container's own issues after its members', hence the choice here; a missing property is the
 * object's own issue (Ajv's `required`), reported before its unknown properties, as Ajv does.
 */
export function describeIssues(
  schema: z.ZodType,
  issues: readonly z.core.$ZodIssue[],
  value?: unknown,
): string {
  const at = (issue: z.core.$ZodIssue) => (isMissing(issue, value) ? issue.path.slice(0, -1) : issue.path);
  const above = (outer: readonly PropertyKey[], inner: readonly PropertyKey[]) =>
    outer.length < inner.length && outer.every((key, i) => key === inner[i]);
  const decisive = issues.find((issue) => !issues.some((other) => above(at(other), at(issue))));
  return decisive ? describeIssue(schema, decisive, value) : 'body is invalid';
}

/**
 * A property the body leaves out that its object requires: zod reports the property's own schema refusing
 * undefined, as a wrong type, or as a value outside an enum or literal.
 */
function isMissing(issue: z.core.$ZodIssue, value: unknown): boolean {
  if ((issue.code !== 'invalid_type' && issue.code !== 'invalid_value') || issue.path.length === 0)
    return false;
  const parent = valueAt(value, issue.path.slice(0, -1));
  return (
    parent !== null &&
    typeof parent === 'object' &&
    !Array.isArray(parent) &&
    !Object.prototype.hasOwnProperty.call(parent, issue.path[issue.path.length - 1]!)
  );
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function describeIssue(schema: z.ZodType, issue: z.core.$ZodIssue, value: unknown): string {
  const pointer = (path: readonly PropertyKey[]) =>
    fieldPath(path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''));
  const at = pointer(issue.path);
  if (isMissing(issue, value))
    return `${pointer(issue.path.slice(0, -1))}.${String(issue.path[issue.path.length - 1])} is required`;
  switch (issue.code) {
    case 'invalid_type': {
      // z.int() refuses a string as "expected number"; its document says integer, as Ajv does.
      const int = issue.expected === 'int' || (schemaAt(schema, issue.path) as { isInt?: boolean })?.isInt;
      return `${at} must be ${int ? 'integer' : issue.expected}`;
    }
    case 'unrecognized_keys': {
      const allowed = Object.keys(shapeOf(schemaAt(schema, issue.path)));
      return `${at} has unexpected property ${issue.keys[0]}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`;
    }
    case 'too_big':
      return `${at} ${bound('more than', issue.origin, issue.maximum, issue.inclusive)}`;
    case 'too_small':
      return `${at} ${bound('fewer than', issue.origin, issue.minimum, issue.inclusive)}`;
    case 'invalid_value': {
      // A z.enum publishes `type` beside `enum`, which Ajv checks first: "must be string" for a number.
      const types = [...new Set(issue.values.map((v) => typeof v))];
      const input = valueAt(value, issue.path);
      if (types.length === 1 && ['string', 'number'].includes(types[0]!) && typeof input !== types[0])
        return `${at} must be ${types[0]}`;
      return issue.values.length === 1
        ? `${at} must be ${String(issue.values[0])}`
        : `${at} must be one of ${issue.values.map(String).join(', ')}`;
    }
    case 'invalid_format':
      // Patterns carry their meaning as the message (endpoints/schemas.ts, `patterned`).
      return `${at} ${issue.message}`;
    case 'custom':
      // Checks of endpoints/schemas.ts (unique items, exactly one of) word their refusal.
      return `${at} ${issue.message}`;
    default:
      return `${at} is invalid`;
  }
}

/** Ajv's wording of a bound: "must NOT have more than 20 items", "must be < 100000000000". */
function bound(
  side: 'more than' | 'fewer than',
  origin: string,
  limit: number | bigint,
  inclusive: boolean | undefined,
): string {
  // Zod's length bounds (arrays, strings) are inclusive, like maxItems and maxLength.
  if (origin === 'array') return `must NOT have ${side} ${limit} items`;
  if (origin === 'string') return `must NOT have ${side} ${limit} characters`;
  const comparison = side === 'more than' ? '<' : '>';
  return `must be ${comparison}${inclusive === false ? '' : '='} ${limit}`;
}

interface AnyDef {
  type?: string;
  shape?: Record<string, unknown>;
  element?: unknown;
  innerType?: unknown;
  out?: unknown;
}
const defOf = (schema: unknown): AnyDef | undefined =>
  (schema as { _zod?: { def?: AnyDef } } | undefined)?._zod?.def;

/** The schema of the value at `path` (through optional, nullable and default wrappers and pipes), if known. */
function schemaAt(schema: unknown, path: readonly PropertyKey[]): unknown {
  let at = schema;
  let i = 0;
  for (;;) {
    const def = defOf(at);
    if (def?.innerType !== undefined) {
      at = def.innerType;
    } else if (def?.type === 'pipe') {
      at = def.out;
    } else if (i === path.length) {
      return at;
    } else if (def?.type === 'object') {
      at = def.shape?.[String(path[i])];
      i += 1;
    } else if (def?.type === 'array') {
      at = def.element;
      i += 1;
    } else {
      return undefined;
    }
  }
}

function shapeOf(schema: unknown): Record<string, unknown> {
  return defOf(schema)?.shape ?? {};
}
