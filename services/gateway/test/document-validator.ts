import type { ErrorObject } from 'ajv';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { schemas } from '../src/openapi/components';
import { patternMessage } from '../src/openapi/schemas/text';
import { fieldPath } from '../src/endpoints/field-path';

/**
 * Test support: the served document's schemas checked by Ajv, a JSON Schema validator that knows nothing of
 * zod. The endpoint tests compare its answers with the definitions' own checks (endpoints/body-check.ts):
 * where both accept and refuse the same bodies, in the same words, the document says exactly what the
 * gateway accepts. Until the endpoints were described once, this was the gateway's request validator.
 */

/** The base URI the component schemas are registered under; `#/components/schemas/X` refs resolve in it. */
const DOCUMENT_ID = 'https://eligo.invalid/rest/openapi.json';

export interface DocumentValidator {
  /** The message naming what is wrong with `value`, or undefined when it matches the schema. */
  check(schema: string, value: unknown): string | undefined;
}

/**
 * Compiles the component schemas of a document (the served one by default, or one captured before, such as
 * test/fixtures/document-before-definitions.json). Strict mode keeps typos in schema keywords from silently
 * validating nothing.
 */
export function createDocumentValidator(components: Record<string, unknown> = schemas): DocumentValidator {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  // OpenAPI keeps schemas under components.schemas; declaring the key lets Ajv take the document as a schema.
  ajv.addKeyword('components');
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: components } });
  const compiled = new Map<string, ValidateFunction>();
  for (const name of Object.keys(components)) {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
    if (!validate) throw new Error(`schema ${name} did not compile`);
    compiled.set(name, validate);
  }
  return {
    check(schema, value) {
      const validate = compiled.get(schema);
      if (!validate) throw new Error(`the document has no schema ${schema}`);
      return validate(value) ? undefined : describeValidationError(validate.errors ?? []);
    },
  };
}

/**
 * One readable sentence for integrators out of Ajv's errors, naming the field the way it appears in the body:
 * "body.segment must be string", "body has unexpected property foo (allowed: name, segment)",
 * "body.name is required". The validator stops at the first failing keyword, so the last error is the
 * decisive one; errors before it are the failed branches of an anyOf/oneOf it ends.
 */
export function describeValidationError(errors: readonly ErrorObject[]): string {
  const last = errors[errors.length - 1];
  if (!last) return 'body is invalid';
  // propertyNames ends with "property name must be valid"; the error before it names the key and its fault.
  const key = errors[errors.length - 2];
  if (last.keyword === 'propertyNames' && key?.propertyName !== undefined) {
    const at = fieldPath(key.instancePath);
    return `${at} key ${JSON.stringify(key.propertyName)}${describe(key).slice(at.length)}`;
  }
  if (last.keyword === 'anyOf' || last.keyword === 'oneOf') return describeCombinator(last, errors);
  return describe(last);
}

function describe(e: ErrorObject): string {
  const message = describeKeyword(e);
  // A rule that holds only in some cases (the then or else of an if) says which in its schema's description:
  // "body.minAge must be null (only age and senior programs take an age range)".
  const why = (e.parentSchema as { description?: unknown } | undefined)?.description;
  return /\/(then|else)\//.test(e.schemaPath) && typeof why === 'string' ? `${message} (${why})` : message;
}

function describeKeyword(e: ErrorObject): string {
  const at = fieldPath(e.instancePath);
  switch (e.keyword) {
    case 'additionalProperties': {
      const property = (e.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return `${at} has unexpected property ${property}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`;
    }
    case 'required':
      return `${at}.${(e.params as { missingProperty: string }).missingProperty} is required`;
    case 'type':
      return `${at} must be ${typeList(e)}`;
    case 'enum':
      return `${at} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    case 'const':
      return `${at} must be ${String((e.params as { allowedValue: unknown }).allowedValue)}`;
    case 'pattern': {
      // The text helpers' patterns say what they mean; others are short enough to quote.
      const pattern = (e.params as { pattern: string }).pattern;
      return `${at} ${patternMessage(pattern) ?? `must match pattern ${JSON.stringify(pattern)}`}`;
    }
    default:
      return `${at} ${e.message ?? 'is invalid'}`;
  }
}

function describeCombinator(e: ErrorObject, errors: readonly ErrorObject[]): string {
  const at = fieldPath(e.instancePath);
  const branches = errors.filter((b) => b !== e && b.schemaPath.startsWith(`${e.schemaPath}/`));
  const passing = (e.params as { passingSchemas?: number[] | null }).passingSchemas;
  const alternatives = requiredAlternatives(e);
  if (alternatives) {
    const kind = e.keyword === 'oneOf' ? 'exactly one' : 'at least one';
    return `${at} must have ${kind} of ${alternatives.join(', ')}`;
  }
  if (passing) return `${at} must match exactly one of its allowed forms`;
  if (branches.length === 0) return `${at} ${e.message ?? 'is invalid'}`;
  // The branch that got furthest into the value says most (e.g. a field inside an object-or-null).
  const depth = Math.max(...branches.map((b) => b.instancePath.length));
  const deepest = branches.filter((b) => b.instancePath.length === depth);
  if (deepest.length === 1 || deepest[0]!.instancePath !== e.instancePath) return describe(deepest[0]!);
  if (deepest.every((b) => b.keyword === 'type'))
    return `${at} must be ${deepest.map(typeList).join(' or ')}`;
  return `${at} ${unique(deepest.map((b) => b.message ?? 'is invalid')).join(', or ')}`;
}

/** oneOf: [{required: [a]}, {required: [b]}] reads better as "exactly one of a, b". */
function requiredAlternatives(e: ErrorObject): string[] | undefined {
  const options = (e.schema as unknown[] | undefined) ?? [];
  const names = options.map((o) => {
    const keys = o && typeof o === 'object' ? Object.keys(o) : [];
    const required = (o as { required?: unknown }).required;
    return keys.length === 1 && Array.isArray(required) && required.length === 1 ? String(required[0]) : '';
  });
  return names.length > 0 && names.every(Boolean) ? names : undefined;
}

function typeList(e: ErrorObject): string {
  return String((e.params as { type: string | string[] }).type)
    .split(',')
    .join(' or ');
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
