import { z } from 'zod';
import { isJsonObject, refusalOf } from './schemas';

/**
 * Objects used as maps (see endpoints/schemas.ts). Zod states a record's keys (`propertyNames: { type:
 * 'string' }`), which JSON object keys are anyway: the document states them only where a rule says more.
 * The verification metadata is a map of its own, with the verification service's rules and words
 * (endpoints/verification-fields.ts, metadataMap).
 */

/** A map of strings in an answer: `{ type: 'object', additionalProperties: { type: 'string' } }`. */
export const stringMap = () => z.record(z.string(), z.string()).meta({ propertyNames: undefined });

/** What a map's keys must be: of a pattern, or one of a list. */
export type KeyRule = { pattern: string } | { enum: readonly string[] };

/**
 * A map of a request body (`propertyNames`, `additionalProperties: <value>`, `maxProperties`), checked in
 * Ajv's order: its type, its size, every key, then the values ("body.theme.intl.messages key \"a b\" must
 * be 1 to 100 letters, digits, _ . or -").
 */
export function mapOf<V extends z.ZodType>(options: {
  key: KeyRule;
  value: V;
  maxProperties?: number;
  description: string;
}) {
  const { key, maxProperties } = options;
  const keyRefusal =
    'pattern' in key
      ? (name: string) => (new RegExp(key.pattern, 'u').test(name) ? undefined : refusalOf(key.pattern))
      : (name: string) => (key.enum.includes(name) ? undefined : `must be one of ${key.enum.join(', ')}`);
  return z
    .preprocess(
      (value, ctx) => {
        const refuse = (message: string) => ctx.addIssue({ code: 'custom', message, input: value });
        if (!isJsonObject(value)) return void refuse('must be object');
        const names = Object.keys(value);
        if (maxProperties !== undefined && names.length > maxProperties)
          return void refuse(`must NOT have more than ${maxProperties} properties`);
        for (const name of names) {
          const refusal = keyRefusal(name);
          if (refusal !== undefined) return void refuse(`key ${JSON.stringify(name)} ${refusal}`);
        }
        return value;
      },
      z.record(z.string(), options.value),
    )
    .meta({
      ...(maxProperties !== undefined ? { maxProperties } : {}),
      propertyNames: 'pattern' in key ? { pattern: key.pattern } : { enum: [...key.enum] },
      description: options.description,
    });
}
