import { z } from 'zod';

/**
 * Integers as the document states them, `{ type: 'integer' }` with only the bounds written for them: zod's
 * z.int() also publishes the safe-integer bounds, and a `.meta()` that leaves them out would also leave out
 * the bounds a later .min/.max sets (the meta outlives them). See endpoints/schemas.ts.
 */

/**
 * An integer of an answer (what a mapping writes); .min/.max add their bound, stated and checked. Where an
 * answer is parsed (the mapping's tests), a fraction is refused.
 */
export const integerValue = () =>
  z.number().refine(Number.isInteger, { error: 'must be integer' }).meta({ type: 'integer' });

/** A timestamp of an answer: epoch milliseconds, as every timestamp of the API; after its description. */
export const epochMs = (description?: string) =>
  integerValue().meta({
    description: description === undefined ? 'Epoch milliseconds.' : `${description} Epoch milliseconds.`,
  });

/**
 * An integer of a request body from `min` to `max`, refused as Ajv refuses it: a value that is not an
 * integer first ("must be integer", a string included), then the bound it passes (z.int() would name its
 * own safe-integer bound first for 1e22, not `max`).
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
