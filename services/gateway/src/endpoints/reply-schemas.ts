import { z } from 'zod';

/**
 * Zod building blocks of response schemas that publish what the hand-written schemas stated, where zod's own
 * JSON Schema would say more than a reply needs to (to fold into endpoints/schemas.ts). A key set to
 * undefined in `.meta()` is left out of the published schema.
 */

/** `{ type: 'integer' }`: z.int() would also publish the safe-integer bounds. */
export const integer = () => z.int().meta({ minimum: undefined, maximum: undefined });

/** `{ type: ['integer', 'null'] }`, rather than the anyOf zod writes for a nullable integer. */
export const nullableInteger = () =>
  integer()
    .nullable()
    .meta({ anyOf: undefined, type: ['integer', 'null'] });

/** A map of strings; zod would also state `propertyNames: { type: 'string' }`, which JSON keys always are. */
export const stringMap = () => z.record(z.string(), z.string()).meta({ propertyNames: undefined });
