import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { NO_CONTROL_CHARACTERS, patternMessage, plainText } from '../openapi/schemas/text';
import type { EndpointResponse } from './define';
import { text } from './query';

/**
 * What the operations of the admin API for staff (endpoints/admin-staff.ts) share: the operator token, its
 * refusal, the body answers, and the few JSON Schema forms the hand-written admin schemas used that zod would
 * state otherwise (zod's z.int() publishes the safe-integer bounds; a nullable string with keywords an anyOf).
 */
export const adminTags = ['admin'] as const;
export const operatorToken = [{ operatorToken: [] }] as const;

export const unauthorized = {
  '401': {
    description: 'Missing or invalid operator token (account tokens are not accepted here)',
    body: 'SystemErrorMessage',
  },
  '503': { shared: 'ServiceUnavailable' },
} satisfies Record<string, EndpointResponse>;

export const withBody = {
  '400': { shared: 'InvalidRequest' },
  '413': { shared: 'PayloadTooLarge' },
} satisfies Record<string, EndpointResponse>;

/** An error answer of the operation's own: ER ({errorIds, systemErrorMessage}) or SEM. */
export const errorAnswer = (
  description: string,
  body: 'ErrorResponse' | 'SystemErrorMessage',
): EndpointResponse => ({ description, body });

/** A path id of 24 hex characters, answered 404 without a call otherwise (validation/path-ids.ts). */
export const hexIdParameter = (description: string) =>
  z
    .string()
    .regex(new RegExp(ID_PATTERN))
    .meta({ description: `${description} (24 lowercase hex characters; any other value is answered 404)` });

/**
 * An opaque page cursor of a service (nextCursor, nextPageToken), given back as it came: up to 1000
 * characters without control characters, surrounding ones included (plainText).
 */
export const pageCursor = (description: string) =>
  text({
    description,
    maxLength: 1000,
    schema: plainText(1000, 1),
    pattern: { source: NO_CONTROL_CHARACTERS, message: patternMessage(NO_CONTROL_CHARACTERS)! },
  });

/**
 * An enum property of a body, stated `{ type: 'string', enum }`. Zod reports a z.enum property left out as a
 * wrong value, not as a missing one, which endpoints/body-check.ts would word "must be string" rather than
 * Ajv's "is required": the value is read as a string first (its absence the missing-property issue), then
 * held to the values ("must be one of ...").
 */
export const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .pipe(z.enum(values))
    .meta({ enum: [...values] });

/** `{ type: 'integer' }` of an answer: a number the mapping sets, stated without zod's safe-integer bounds. */
export const integerValue = () => z.number().meta({ type: 'integer' });

/** `{ type: ['integer', 'null'] }` of an answer. */
export const integerOrNull = (meta: Record<string, unknown> = {}) => integerValue().nullable().meta(meta);

/** `{ type: ['string', 'null'] }` of an answer, with its description (and format, for instants). */
export const stringOrNull = (meta: Record<string, unknown> = {}) => z.string().nullable().meta(meta);

/**
 * A schema of another resource, by its component name (`{ $ref }`), so that this file does not depend on how
 * that one states it; `T` is the JSON its mapping writes. Only for answers: nothing checks a value against it.
 */
export const componentRef = <T>(name: string) =>
  z.unknown().meta({ $ref: `#/components/schemas/${name}` }) as unknown as z.ZodType<T, T>;

/**
 * A value a service gives as a string (proto), one of those the answer's schema lists. Another is a fault of
 * the service (500, logged), like a missing reply field (mapping/program.ts, present), rather than an answer
 * the document does not describe.
 */
export function listedValue<T>(schema: z.ZodType<T>, value: string, what: string): T {
  const known = schema.safeParse(value);
  if (!known.success) throw new Error(`service replied with ${what} ${value}`);
  return known.data;
}
