import { z } from 'zod';
import { ID_PATTERN, LOCALE_RULE } from '@eligo/vocabulary';
import { NO_CONTROL_CHARACTERS, plainText } from '../openapi/schemas/text';
import { describeIssues, type BodyCheck } from './body-check';
import { fromStringSchema, patterned } from './schemas';
import {
  compactJws,
  isLocale,
  LOCALE,
  localeDescription,
  METADATA_LIMITS,
  METADATA_TEXT,
  metadataMap,
  metadataProblem,
  metadataRules,
} from './verification-fields';
import { nullTaken } from './schemas-nullable';

/**
 * The request bodies of the verification flow but the subjects (endpoints/verification-subjects.ts): the
 * start, the metadata, the military status, the social security number and the marketplace token step.
 */

export const NewVerificationRequest = z
  .strictObject({
    programId: patterned(ID_PATTERN).meta({
      description: 'Another shape is 400 invalidRequest, an unknown program 404 noProgram.',
    }),
    trackingId: fromStringSchema(plainText(256))
      .meta({
        description:
          "Ties the verification to an identifier in the client's own systems (at most 256 characters, " +
          'without control characters; surrounding spaces are dropped).',
      })
      .optional(),
    metadata: metadataMap({ withTextRules: false })
      .meta({
        ...METADATA_LIMITS,
        description:
          'The verification’s metadata from the start, as PUT /verification/{verificationId}/metadata would ' +
          `set it (and announced the same way). ${metadataRules('400')}`,
      })
      .optional(),
    locale: fromStringSchema(LOCALE)
      .refine(isLocale, { error: `must be ${LOCALE_RULE}` })
      .meta({
        description: localeDescription(
          'The locale of every response of the verification, until a personal-info body gives another; ' +
            'without it, the program theme’s.',
        ),
        examples: ['en-US'],
      })
      .optional(),
  })
  .meta({ id: 'NewVerificationRequest' });

export type NewVerificationBody = z.output<typeof NewVerificationRequest>;

/**
 * POST /verification's body, refused as before: the published schema's words (endpoints/body-check.ts),
 * and the metadata's shape only once the rest passes, in a metadata map's words; its text rules and sizes
 * are the verification service's, which answers them (the latter with their own errorIds).
 */
export function checkNewVerification(body: unknown): BodyCheck<NewVerificationBody> {
  const result = NewVerificationRequest.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  const { issues } = result.error;
  const rest = issues.filter((issue) => issue.path[0] !== 'metadata');
  return {
    ok: false,
    problem:
      rest.length > 0
        ? describeIssues(NewVerificationRequest, rest, body)
        : metadataProblem(issues[0]!, 'body.metadata', 1),
  };
}

export const VerificationMetadata = metadataMap({ withTextRules: false }).meta({
  ...METADATA_LIMITS,
  id: 'VerificationMetadata',
  description: `A flat map of strings; a nested or non-string value is 400 invalidRequest. ${metadataRules('400')}`,
});

/** PUT .../metadata's body: its shape and the reserved key here, its text and sizes the service's. */
export function checkMetadata(body: unknown): BodyCheck<Record<string, string>> {
  const result = VerificationMetadata.safeParse(body);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problem: metadataProblem(result.error.issues[0]!, 'body', 0) };
}

/** What the personal-info steps hold a metadata map to before the service reads it (which answers the sizes). */
export const VerificationMetadataText = metadataMap({ withTextRules: true }).meta({
  ...METADATA_TEXT,
  id: 'VerificationMetadataText',
  description:
    'What a metadata map may hold, whatever its size: keys of at least one character, and keys and values ' +
    'without control characters. A personal-info step with other metadata is refused with 400 ' +
    'invalidRequest before the verification service reads it (which answers the sizes).',
});

const plain = (description: string) => patterned(NO_CONTROL_CHARACTERS).meta({ description });

export const MilitaryStatusRequest = z
  .strictObject({
    status: plain(
      'ACTIVE_DUTY, VETERAN, RESERVIST, MILITARY_RETIREE, MILITARY_FAMILY or GOLD_STAR_FAMILY, as far as ' +
        'the program offers them (availableStatuses); another value is the recoverable error ' +
        'invalidMilitaryStatus, whose systemErrorMessage names the allowed values.',
    ),
  })
  .meta({ id: 'MilitaryStatusRequest' });

export const EmailTokenRequest = z
  .strictObject({
    emailToken: patterned(NO_CONTROL_CHARACTERS)
      .meta({
        maxLength: 64,
        description:
          'The code mailed to the person (6 digits; spaces and hyphens are ignored). A wrong one is the ' +
          'recoverable error invalidEmailLoopToken, an expired one expiredEmailLoopToken; the fifth wrong ' +
          'code moves the verification to docUpload.',
      })
      .max(64),
  })
  .meta({ id: 'EmailTokenRequest' });

export const SocialSecurityNumberRequest = z
  .strictObject({ socialSecurityNumber: plain('Used for the identity match only; never stored.') })
  .meta({ id: 'SocialSecurityNumberRequest' });

export const MARKETPLACE_TOKEN_DESCRIPTION =
  'A compact JWS whose payload is the subject (the keys of the form the verification is on), signed ' +
  'with the program’s subject token key (ES256, RS256 or EdDSA). The payload also carries the claims ' +
  'aud (the program id, or a list with it), iat, exp (at most 15 minutes after iat; 60 seconds of clock ' +
  'skew allowed) and jti (1-128 visible ASCII characters, taken once per program while the token lives); ' +
  'nbf and iss are optional. A token without them, expired, for another program or used before is ' +
  '400 invalidRequest.';
export const OTHER_TOKEN_NAME = 'Another name of marketplaceToken.';

/**
 * The names a marketplace token may come under: the spec's `marketplaceToken`, and `verificationToken`,
 * which clients send. A body carries exactly one of them.
 */
const TOKEN_KEYS = ['marketplaceToken', 'verificationToken'] as const;
const given = (value: unknown) => value !== undefined && value !== null;

/** A token name of the step's body: null is taken as not given, the other name being the token. */
const tokenName = (description: string) => nullTaken(compactJws().meta({ description })).optional();

/**
 * collectMarketplaceToken's body, read as before: its keys first (each must be a token name), then exactly
 * one token given, then the token itself (checkStepBody with keysFirst words the refusals).
 */
export const MarketplaceTokenRequest = z
  .preprocess(
    (value, ctx) => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const body = value as Record<string, unknown>;
        const keys = Object.keys(body);
        const known = keys.every((key) => (TOKEN_KEYS as readonly string[]).includes(key));
        // An unexpected key is the object's to name (first, as it was read first: checkStepBody keysFirst).
        if (known && TOKEN_KEYS.filter((key) => given(body[key])).length !== 1)
          ctx.addIssue({
            code: 'custom',
            message: `must have exactly one of ${TOKEN_KEYS.join(', ')}`,
            input: value,
          });
      }
      return value;
    },
    z
      .strictObject(
        {
          marketplaceToken: tokenName(MARKETPLACE_TOKEN_DESCRIPTION),
          verificationToken: tokenName(OTHER_TOKEN_NAME),
        },
        { error: 'must be a JSON object' },
      )
      .meta({
        description: 'The marketplace token, as marketplaceToken or as verificationToken (exactly one).',
        oneOf: TOKEN_KEYS.map((key) => ({ required: [key] })),
      }),
  )
  .meta({ id: 'MarketplaceTokenRequest' });

/** The one token of a checked marketplace token body (MarketplaceTokenRequest lets exactly one through). */
export const tokenOf = (body: z.output<typeof MarketplaceTokenRequest>): string =>
  body.marketplaceToken ?? body.verificationToken ?? '';
