import { z } from 'zod';
import {
  CURRENCY_PATTERN,
  MAX_AMOUNT,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  MAX_TAGS_PER_VERIFICATION,
} from '../openapi/schemas/conversion-limits';
import { plainText, trimmedName } from '../openapi/schemas/text';
import { accountToken, hexIdParameter, sem, unavailable } from './common';
import { defineEndpoint, type BodyOf, type EndpointResponse } from './define';
import { fromStringSchema, patterned } from './schemas';

/**
 * Conversion tracking (the spec's "Reports and conversions" table): the two endpoints, described once. The
 * route (routes/conversion.ts) registers them by these paths and checks bodies with these schemas; the
 * document (openapi/document.ts) states them from here. Every refusal is SEM, as the spec says.
 */
export const ConversionRequest = z
  .strictObject({
    amount: z
      .number()
      .min(0)
      .lt(MAX_AMOUNT)
      .meta({
        description:
          'The value of the conversion (e.g. a purchase total), kept to 4 decimal places. Missing, not a ' +
          `number, negative or ${MAX_AMOUNT} and more: 400 "Invalid amount".`,
      }),
    currency: patterned(CURRENCY_PATTERN)
      .meta({
        description: 'An ISO 4217 code, in any case (default USD); another is 400 "Invalid currency".',
        examples: ['USD'],
      })
      .optional(),
    tags: z
      .array(fromStringSchema({ ...trimmedName(MAX_TAG_LENGTH) }))
      .max(MAX_TAGS)
      .meta({
        description:
          `Labels of your own, kept with the conversion: at most ${MAX_TAGS}, each 1 to ${MAX_TAG_LENGTH} ` +
          'characters once trimmed, without control characters; repeated ones are kept once. A ' +
          `verification keeps at most ${MAX_TAGS_PER_VERIFICATION} distinct tags over all its conversions ` +
          "(the report's conversionTags): once it has that many, tags it does not have yet are dropped, and " +
          'the conversion itself is still recorded and counted (never refused for its tags).',
      })
      .optional(),
  })
  .meta({ id: 'ConversionRequest' });

export const ConversionResponse = z
  .object({ id: z.string().meta({ description: 'The id of the recorded conversion.' }) })
  .meta({ id: 'ConversionResponse' });

const tags = ['conversion'] as const;
const common = {
  '200': { description: 'The conversion was recorded', body: ConversionResponse },
  '400': sem(
    'The body is refused: systemErrorMessage "Invalid amount" for an amount that is missing, not a number, ' +
      'negative or not finite; otherwise it names the field (also malformed JSON, an unknown currency)',
  ),
  '413': sem('Request body larger than the configured limit'),
  ...unavailable,
} satisfies Record<string, EndpointResponse>;

export const recordConversionByVerification = defineEndpoint({
  method: 'post',
  path: '/conversion/verification/{verificationId}',
  operationId: 'recordConversionByVerification',
  summary: 'Records a conversion (e.g. a purchase) against a verification',
  description:
    'A token is optional: without one, the verification id is the capability; with one, it must be a ' +
    "valid account token, and the conversion is checked against its account (another account's " +
    'verification is 404).',
  tags,
  // The empty requirement lets a request without a token through.
  security: [{}, ...accountToken],
  params: z.object({ verificationId: hexIdParameter('The verification') }),
  body: ConversionRequest,
  responses: {
    ...common,
    '401': sem('An Authorization header was sent, and its token is not a valid account token'),
    '404': sem('No such verification (also for a malformed verificationId)'),
  },
});

export const recordConversionByTrackingId = defineEndpoint({
  method: 'post',
  path: '/conversion/account/{accountId}/trackingId/{trackingId}',
  operationId: 'recordConversionByTrackingId',
  summary: 'Records a conversion against the most recent verification with this tracking id',
  description:
    "The account's own token is required (static or OAuth): the tracking id is yours (often an order " +
    'number), so the path alone must not let anyone record conversions or learn which tracking ids exist.',
  tags,
  security: accountToken,
  params: z.object({
    accountId: hexIdParameter('The account (shown with the access tokens)'),
    trackingId: fromStringSchema(plainText(256, 1)).meta({
      description:
        'The tracking id a verification of the account was started with (1 to 256 characters, no control ' +
        'characters).',
    }),
  }),
  body: ConversionRequest,
  responses: {
    ...common,
    '401': sem(
      'No token, a token that is not a valid account token, or a token of another account than ' +
        'accountId: the same answer whether or not that account exists (`WWW-Authenticate: Bearer`)',
    ),
    '404': sem(
      'No verification of the account with this tracking id (also for a tracking id longer than 256 ' +
        'characters or with control characters)',
    ),
  },
});

/** The body both endpoints take, once checked. */
export type ConversionBody = BodyOf<typeof recordConversionByVerification>;

export const conversionEndpoints = [recordConversionByVerification, recordConversionByTrackingId] as const;
