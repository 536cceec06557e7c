import { ID_PATTERN } from '@eligo/vocabulary';
import { webhookNotificationNames } from '../../mapping/webhook-notification';

/** What the program endpoints answer: the program configuration and its parts. */
const epochMs = { type: 'integer', description: 'Epoch milliseconds.' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const strings = { type: 'array', items: { type: 'string' } } as const;

export const programSchemas = {
  ProgramConfiguration: {
    type: 'object',
    required: [
      'programId',
      'accountId',
      'name',
      'segment',
      'subSegments',
      'mode',
      'startDate',
      'endDate',
      'offerType',
      'rewardCode',
      'rewardCodesRemaining',
      'redirectUrl',
      'consolationRewardCode',
      'minAge',
      'maxAge',
      'countries',
      'maxRejections',
      'maxReviewTime',
      'estimatedReviewTime',
      'organizationRules',
      'theme',
      'webhook',
      'verificationLimit',
      'subjectTokenKey',
      'requireAccountTokenToCreate',
      'created',
      'updated',
    ],
    properties: {
      programId: { type: 'string', pattern: ID_PATTERN },
      accountId: { type: 'string', pattern: ID_PATTERN },
      name: { type: 'string' },
      segment: { type: 'string' },
      subSegments: strings,
      mode: { type: 'string', enum: ['test', 'live'] },
      startDate: { type: ['string', 'null'], format: 'date-time' },
      endDate: { type: ['string', 'null'], format: 'date-time' },
      offerType: { type: 'string', enum: ['staticCode', 'rewardPool', 'noCode'] },
      rewardCode: nullableString,
      rewardCodesRemaining: { type: 'integer', description: 'Unclaimed codes of a rewardPool offer.' },
      redirectUrl: nullableString,
      consolationRewardCode: nullableString,
      minAge: { type: ['integer', 'null'] },
      maxAge: { type: ['integer', 'null'] },
      countries: strings,
      maxRejections: { type: 'integer' },
      maxReviewTime: nullableString,
      estimatedReviewTime: nullableString,
      organizationRules: { $ref: '#/components/schemas/OrganizationRules' },
      theme: { $ref: '#/components/schemas/Theme' },
      webhook: { anyOf: [{ $ref: '#/components/schemas/Webhook' }, { type: 'null' }] },
      verificationLimit: { anyOf: [{ $ref: '#/components/schemas/VerificationLimit' }, { type: 'null' }] },
      subjectTokenKey: {
        ...nullableString,
        description:
          'Public key (a JWK as JSON, or PEM) that verifies the compact JWS subject tokens of the program; ' +
          'null when none.',
      },
      requireAccountTokenToCreate: {
        type: 'boolean',
        description:
          "Verifications of the program are created only with a token of the program's account (401 " +
          'otherwise); false: anyone may start one.',
      },
      created: epochMs,
      updated: epochMs,
    },
  },
  OrganizationRules: {
    type: 'object',
    required: ['types', 'countries', 'includeIds', 'excludeIds'],
    properties: {
      types: strings,
      countries: strings,
      includeIds: { type: 'array', items: { type: 'integer' } },
      excludeIds: { type: 'array', items: { type: 'integer' } },
    },
  },
  Theme: {
    type: 'object',
    description:
      'Messages and CSS of the verification form. User-facing text for an error is under intl.errorId, ' +
      'keyed by the error id.',
    required: ['intl', 'customCss'],
    properties: {
      intl: {
        type: 'object',
        required: ['locale', 'messages', 'errorId'],
        properties: { locale: { type: 'string' }, messages: stringMap, errorId: stringMap },
      },
      customCss: { type: 'string' },
    },
  },
  Webhook: {
    type: 'object',
    required: ['callbackUri', 'notifierEventTypes', 'created'],
    properties: {
      callbackUri: { type: 'string', format: 'uri' },
      notifierEventTypes: {
        type: 'array',
        items: { type: 'string', enum: webhookNotificationNames },
        description: 'The notifications besides success the program opted in to; [] when none.',
      },
      created: epochMs,
      signingSecret: {
        type: 'string',
        description:
          'HMAC-SHA256 key of the webhook signature; only in the reply of the call that set the webhook.',
      },
    },
  },
  VerificationLimit: {
    type: 'object',
    required: ['quantity', 'days'],
    properties: { quantity: { type: 'integer' }, days: { type: 'integer' } },
  },
  RewardCodesAdded: {
    type: 'object',
    required: ['added', 'remaining'],
    properties: {
      added: { type: 'integer', description: 'Codes newly added (duplicates are skipped, not counted).' },
      remaining: { type: 'integer', description: 'Unclaimed codes in the pool now.' },
    },
  },
} as const;
