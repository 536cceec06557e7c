import { z } from 'zod';
import {
  canonicalLocale,
  CONTROL_CHARACTERS,
  LOCALE_PATTERN,
  LOCALE_RULE,
  MAX_LOCALE_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  RESERVED_METADATA_KEYS,
} from '@eligo/vocabulary';
import { fieldPath } from './field-path';
import { isJsonObject } from './schemas';
import { described, NO_CONTROL_CHARACTERS, plainText } from '../openapi/schemas/text';

/**
 * Building blocks of the verification flow's schemas (endpoints/verification-*.ts): the text rules of the
 * person's fields, metadata maps, compact JWS tokens and locales (values that may be null are
 * endpoints/schemas-nullable.ts's). Each publishes the JSON Schema the document states and checks what the
 * gateway checked before the definitions.
 */

export const NO_CONTROL_MESSAGE = 'must not contain control characters';

/**
 * What a text rule's refusal carries. Before the definitions, the personal-info steps read the body's keys
 * and JSON types first (their own messages), then held it to the published schema (the text rules, in its
 * words); endpoints/verification-step-check.ts reports them in that order by this mark.
 */
export interface TextRule {
  /** A metadata map's key, or its value; true for a field of its own. */
  textRule: true | 'key' | 'value';
}

/** No control characters (the pattern the document states), refused as a text rule. */
export const noControlCharacters = (schema: z.ZodString) =>
  schema
    .check(
      z.superRefine((value: string, ctx) => {
        if (CONTROL_CHARACTERS.test(value))
          ctx.addIssue({
            code: 'custom',
            message: NO_CONTROL_MESSAGE,
            input: value,
            params: { textRule: true } satisfies TextRule,
          });
      }),
    )
    .meta({ pattern: NO_CONTROL_CHARACTERS });

/** A value of a rule of its own, refused with its words whatever is wrong (a wrong JSON type included). */
export const ruled = (message: string, valid: (value: string) => boolean) =>
  z.string({ error: message }).check(
    z.superRefine((value: string, ctx) => {
      if (!valid(value)) ctx.addIssue({ code: 'custom', message, input: value });
    }),
  );

/** The locales the service takes (services/verification/src/domain/client-fields.ts), exactly. */
export const LOCALE = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_LOCALE_LENGTH,
  pattern: described(LOCALE_PATTERN, `must be ${LOCALE_RULE}`),
} as const;

export const localeDescription = (more: string) =>
  `${LOCALE_RULE[0]!.toUpperCase()}${LOCALE_RULE.slice(1)}, any case (another value is 400 invalidRequest), ` +
  `stored in its canonical form (EN-us as en-US). ${more}`;

/** A locale as the service reads it (Intl's canonical form exists), refused in the words of LOCALE_RULE. */
export const isLocale = (value: string) => canonicalLocale(value) !== undefined;

/**
 * Verification metadata, with every limit the verification service enforces. The service answers a map
 * past the size limits with maxMetadataValuesExceeded or maxMetadataLengthExceeded (not invalidRequest), so
 * the gateway leaves those checks to it: they are stated here, not checked. `limits` says how they are
 * answered.
 */
export const metadataRules = (limits: string) =>
  `At most ${MAX_METADATA_KEYS} keys of 1 to ${MAX_METADATA_KEY_LENGTH} characters, values of at most ` +
  `${MAX_METADATA_VALUE_LENGTH} characters, no control characters in keys or values, and no reserved key ` +
  `(${RESERVED_METADATA_KEYS.join(', ')}): too many keys is ${limits} maxMetadataValuesExceeded, a key or ` +
  `value too long ${limits} maxMetadataLengthExceeded, anything else 400 invalidRequest.`;

const keyRules = {
  type: 'string',
  minLength: 1,
  pattern: NO_CONTROL_CHARACTERS,
  not: { enum: [...RESERVED_METADATA_KEYS] },
} as const;

/** What the document states of a map's keys and values whatever its size: the text rules. */
export const METADATA_TEXT = {
  propertyNames: keyRules,
  additionalProperties: { type: 'string', pattern: NO_CONTROL_CHARACTERS },
} as const;

/** What the document states of a map with the service's limits. */
export const METADATA_LIMITS = {
  maxProperties: MAX_METADATA_KEYS,
  propertyNames: { ...keyRules, maxLength: MAX_METADATA_KEY_LENGTH },
  additionalProperties: plainText(MAX_METADATA_VALUE_LENGTH),
} as const;

const reserved = (key: string) => RESERVED_METADATA_KEYS.includes(key);

/**
 * Keys and values without control characters, no empty key: the first key at fault (keys first, in the
 * map's order), else the first value, as the published schema's validator reported them.
 */
const textRules = z.superRefine((map: Record<string, string>, ctx) => {
  const entries = Object.entries(map);
  const key = entries.find(([k]) => k.length === 0 || CONTROL_CHARACTERS.test(k))?.[0];
  const value = entries.find(([, v]) => CONTROL_CHARACTERS.test(v))?.[0];
  if (key !== undefined)
    ctx.addIssue({
      code: 'custom',
      message: key.length === 0 ? 'must NOT have fewer than 1 characters' : NO_CONTROL_MESSAGE,
      path: [key],
      input: map,
      params: { textRule: 'key' } satisfies TextRule,
    });
  else if (value !== undefined)
    ctx.addIssue({
      code: 'custom',
      message: NO_CONTROL_MESSAGE,
      path: [value],
      input: map,
      params: { textRule: 'value' } satisfies TextRule,
    });
});

/**
 * A metadata map: an object of string values without a reserved key (`__proto__`, which an object would
 * take as its prototype: zod's record skips it, so it is looked for in the body as sent), refused at the
 * first entry at fault in the map's order. `withTextRules` also holds it to the text rules (the personal-info
 * steps; elsewhere the service answers them). Its refusals read as `metadataProblem` words them.
 */
export function metadataMap({ withTextRules }: { withTextRules: boolean }) {
  const map = z.record(z.string(), z.string({ error: 'must be a string' }), {
    error: 'must be an object of string values',
  });
  return z.preprocess(
    (value, ctx) => {
      if (isJsonObject(value)) {
        const first = Object.entries(value).find(([key, v]) => reserved(key) || typeof v !== 'string');
        if (first !== undefined && reserved(first[0]))
          ctx.addIssue({ code: 'custom', message: 'is a reserved key', path: [first[0]], input: value });
      }
      return value;
    },
    withTextRules ? map.check(textRules) : map,
  );
}

/**
 * A refusal of a metadata map at `at` (`body`, `body.metadata`), as the gateway words it: the map
 * (`body.metadata must be an object of string values`), an entry (`body.metadata["a"] must be a string`), or
 * a text rule in the published schema's validator's words (`body.metadata key "a\u0000" must not contain
 * control characters`, `body.metadata.plan must not contain control characters`).
 */
export function metadataProblem(issue: z.core.$ZodIssue, at: string, depth: number): string {
  const key = issue.path[depth];
  if (key === undefined) return `${at} ${issue.message}`;
  const rule = (issue as { params?: Partial<TextRule> }).params?.textRule;
  if (rule === 'key') return `${at} key ${JSON.stringify(key)} ${issue.message}`;
  // The validator named a value as fieldPath does (`.plan`, `["a.b"]`).
  if (rule === 'value')
    return `${at}${fieldPath(`/${pointerSegment(String(key))}`).slice('body'.length)} ${issue.message}`;
  return `${at}[${JSON.stringify(key)}] ${issue.message}`;
}

const pointerSegment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Largest compact JWS accepted as a body or as a marketplace token. */
export const MAX_JWS_BYTES = 16 * 1024;
const COMPACT_JWS = '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$';
const JWS_MESSAGE = 'must be a compact JWS (header.payload.signature, at most 16 KiB)';

/** What the document states of a compact JWS (three base64url segments separated by dots). */
export const JWS = { type: 'string', maxLength: MAX_JWS_BYTES, pattern: COMPACT_JWS } as const;

/**
 * A compact JWS as the personal-info steps read it (the DriverLicense body sent as application/jose, a
 * marketplace token): trimmed, at most 16 KiB, three base64url segments; refused in one sentence. The
 * signature is the verification service's to check.
 */
export const compactJws = () =>
  z
    .string({ error: JWS_MESSAGE })
    .trim()
    .check(
      z.superRefine((token: string, ctx) => {
        if (!token || Buffer.byteLength(token) > MAX_JWS_BYTES || !new RegExp(COMPACT_JWS).test(token))
          ctx.addIssue({ code: 'custom', message: JWS_MESSAGE, input: token });
      }),
    )
    .meta(JWS);
