import type { z } from 'zod';
import { NO_CONTROL_CHARACTERS, patternMessage, plainText } from '../openapi/schemas/text';
import type { EndpointResponse } from './define';
import { unavailable } from './common';
import { text } from './query';

/**
 * What the operations of the admin API for staff (endpoints/admin-staff.ts) share: the operator token and
 * its refusal, and the page cursors. What the other definitions share too is in endpoints/common.ts.
 */
export const adminTags = ['admin'] as const;
export const operatorToken = [{ operatorToken: [] }] as const;

/** Where every admin operation lives, and what it takes. */
export const adminOperation = { server: 'admin', tags: adminTags, security: operatorToken } as const;

export const unauthorized = {
  '401': {
    description: 'Missing or invalid operator token (account tokens are not accepted here)',
    body: 'SystemErrorMessage',
  },
  ...unavailable,
} satisfies Record<string, EndpointResponse>;

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
 * A value a service gives as a string (proto), one of those the answer's schema lists. Another is a fault of
 * the service (500, logged), like a missing reply field (mapping/program.ts, present), rather than an answer
 * the document does not describe.
 */
export function listedValue<T>(schema: z.ZodType<T>, value: string, what: string): T {
  const known = schema.safeParse(value);
  if (!known.success) throw new Error(`service replied with ${what} ${value}`);
  return known.data;
}
