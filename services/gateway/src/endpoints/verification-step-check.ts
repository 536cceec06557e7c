import type { z } from 'zod';
import type { BodyCheck } from './body-check';
import { fieldPath } from './field-path';
import { metadataProblem, type TextRule } from './verification-fields';

/**
 * The check of the personal-info steps' JSON bodies (a subject, a marketplace token), refused with REST v2's
 * step error (a 400 VR, routes/verification-params.ts's stepErrors) in the words the steps have always used.
 * The body is read key by key, in its own order, and the first key that is not the form's, or whose value
 * has the wrong JSON type, is named ("Unexpected property 'nickname'. Allowed keys: firstName, ...",
 * "body.firstName must be a string"); only a body that reads is held to the text rules (TextRule), in the
 * schema's order, its metadata's last ("body.firstName must not contain control characters").
 */
export function checkStepBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  /** Every key is read before any value (the marketplace token's body): an unexpected one is named first. */
  { keysFirst = false }: { keysFirst?: boolean } = {},
): BodyCheck<z.output<S>> {
  const result = schema.safeParse(body);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problem: stepBodyProblem(schema, result.error.issues, body, keysFirst) };
}

type Issue = z.core.$ZodIssue;

const ruleOf = (issue: Issue) => (issue as { params?: Partial<TextRule> }).params?.textRule;

function stepBodyProblem(
  schema: z.ZodType,
  issues: readonly Issue[],
  body: unknown,
  keysFirst: boolean,
): string {
  const reading = issues.filter((issue) => ruleOf(issue) === undefined);
  const unexpected = keysFirst ? reading.find((issue) => issue.code === 'unrecognized_keys') : undefined;
  if (reading.length > 0) return readingProblem(schema, unexpected ?? firstInBody(reading, body));
  const issue = issues.find((i) => ruleOf(i) === true) ?? issues[0]!;
  if (ruleOf(issue) !== true) return metadataProblem(issue, 'body.metadata', 1);
  const pointer = issue.path.map((key) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`);
  return `${fieldPath(pointer.join(''))} ${issue.message}`;
}

/**
 * The issue of the body's first key at fault; within a key, an unexpected key of its own (organization's)
 * first, as the keys were read before the values.
 */
function firstInBody(issues: readonly Issue[], body: unknown): Issue {
  const keys = body !== null && typeof body === 'object' ? Object.keys(body) : [];
  const position = (issue: Issue) => {
    const key = issue.path.length === 0 && issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path[0];
    return keys.indexOf(String(key));
  };
  const rank = (issue: Issue) => [position(issue), issue.code === 'unrecognized_keys' ? 0 : 1];
  return [...issues].sort((a, b) => {
    const [pa, ua] = rank(a);
    const [pb, ub] = rank(b);
    return pa! - pb! || ua! - ub!;
  })[0]!;
}

function readingProblem(schema: z.ZodType, issue: Issue): string {
  if (issue.code === 'unrecognized_keys') {
    const allowed = Object.keys(shapeAt(schema, issue.path));
    return `Unexpected property '${[...issue.path, issue.keys[0]].join('.')}'. Allowed keys: ${allowed.join(', ')}`;
  }
  if (issue.path[0] === 'metadata') return metadataProblem(issue, 'body.metadata', 1);
  // An item of a list is the list's fault ("body.statuses must be an array of strings").
  const end = issue.path.findIndex((key) => typeof key === 'number');
  const path = end < 0 ? issue.path : issue.path.slice(0, end);
  return `${['body', ...path.map(String)].join('.')} ${issue.message}`;
}

interface AnyDef {
  type?: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  out?: unknown;
}
const defOf = (schema: unknown): AnyDef | undefined =>
  (schema as { _zod?: { def?: AnyDef } } | undefined)?._zod?.def;

/** The object shape at `path` (through optional, nullable and preprocess wrappers). */
function shapeAt(schema: unknown, path: readonly PropertyKey[]): Record<string, unknown> {
  let at = schema;
  let i = 0;
  for (;;) {
    const def = defOf(at);
    if (def?.innerType !== undefined) at = def.innerType;
    else if (def?.type === 'pipe') at = def.out;
    else if (i < path.length && def?.type === 'object') at = def.shape?.[String(path[i++])];
    else return i === path.length ? (def?.shape ?? {}) : {};
  }
}
