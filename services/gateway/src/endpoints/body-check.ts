import type { z } from 'zod';
import { fieldPath } from '../validation/error-message';

export type BodyCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Checks a body against its definition's zod schema. A refusal is one sentence of the same form the
 * OpenAPI validator writes (validation/error-message.ts), naming the field as it appears in the body:
 * "body.currency must be string", "body has unexpected property price (allowed: amount, currency, tags)".
 */
export function checkBody<S extends z.ZodType>(schema: S, value: unknown): BodyCheck<z.infer<S>> {
  const result = schema.safeParse(value);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problem: describeIssues(schema, result.error.issues) };
}

/**
 * One issue decides, as with Ajv, which checks a value's own keywords (type, additionalProperties, maxItems)
 * before it goes into its properties and items, in their order: the issue nearest the root, the first of
 * those. Zod reports a container's own issues after its members', hence the choice here.
 */
export function describeIssues(schema: z.ZodType, issues: readonly z.core.$ZodIssue[]): string {
  let decisive: z.core.$ZodIssue | undefined;
  for (const issue of issues) if (!decisive || issue.path.length < decisive.path.length) decisive = issue;
  return decisive ? describeIssue(schema, decisive) : 'body is invalid';
}

function describeIssue(schema: z.ZodType, issue: z.core.$ZodIssue): string {
  const at = fieldPath(
    issue.path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
  );
  switch (issue.code) {
    case 'invalid_type':
      return `${at} must be ${issue.expected === 'int' ? 'integer' : issue.expected}`;
    case 'unrecognized_keys': {
      const allowed = Object.keys(shapeOf(schemaAt(schema, issue.path)));
      return `${at} has unexpected property ${issue.keys[0]}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`;
    }
    case 'too_big':
      return `${at} ${bound('more than', issue.origin, issue.maximum, issue.inclusive)}`;
    case 'too_small':
      return `${at} ${bound('fewer than', issue.origin, issue.minimum, issue.inclusive)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `${at} must be ${String(issue.values[0])}`
        : `${at} must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      // Patterns carry their meaning as the message (endpoints/schemas.ts, `patterned`).
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
}
const defOf = (schema: unknown): AnyDef | undefined =>
  (schema as { _zod?: { def?: AnyDef } } | undefined)?._zod?.def;

/** The schema of the value at `path` (through optional, nullable and default wrappers), if known. */
function schemaAt(schema: unknown, path: readonly PropertyKey[]): unknown {
  let at = schema;
  let i = 0;
  for (;;) {
    const def = defOf(at);
    if (def?.innerType !== undefined) {
      at = def.innerType;
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
