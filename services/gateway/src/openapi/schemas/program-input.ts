import { webhookNotificationNames } from '../../mapping/webhook-notification';

/**
 * Request bodies of the program endpoints. Only shapes and types are checked here; which segments,
 * sub-segments, countries and review times exist, and rules across fields, are the programs service's
 * (400 invalidRequest from there), so the vocabularies are described, not enumerated.
 */
const int32 = { type: 'integer', minimum: 0, maximum: 2147483647 } as const;
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const nullableText = (maxLength: number, description: string) =>
  ({ type: ['string', 'null'], minLength: 1, maxLength, description }) as const;
const stringList = (maxItems: number, description: string) =>
  ({ type: ['array', 'null'], maxItems, items: text(100), description }) as const;
const dateInput = (description: string) =>
  ({
    type: ['string', 'null'],
    anyOf: [{ format: 'date' }, { format: 'date-time' }],
    description: `${description} \`YYYY-MM-DD\` (UTC midnight) or an RFC 3339 date-time; null for none.`,
  }) as const;
const idList = { type: 'array', maxItems: 10_000, items: { type: 'integer', minimum: 1 } } as const;

/** Settings a program is created with and that PATCH changes (the same names and shapes in both). */
const programSettings = {
  name: text(200),
  segment: {
    ...text(64),
    description:
      'The audience segment: student, military, teacher, senior, age, firstResponder, ' +
      'medicalProfessional, licensedProfessional, mover, driverLicense, generalIdentity, employee, member ' +
      'or lowIncome. Another value is refused with 400 invalidRequest. Cannot be changed later.',
  },
  subSegments: stringList(
    50,
    'Sub-segments a verification may end in, each valid for the segment: military activeDuty, veteran, ' +
      'reservist, militaryRetiree, militaryFamily, goldStarFamily; firstResponder police, emt, fireFighter, ' +
      'searchAndRescue; medicalProfessional nurse, doctor, dentist, pharmacist, otherHealthWorker; ' +
      'licensedProfessional licensedCosmetologist, licensedRealEstateAgent, veterinarian, childCareWorker, ' +
      'librarian, interiorDesigner, architect, generalContractor, nutritionProfessional; mover homeBuyer, ' +
      'otherMover; lowIncome snapBenefits, otherGovernmentAssistance; none for the others.',
  ),
  mode: {
    type: 'string',
    enum: ['test', 'live'],
    description: 'New programs start in test mode, where outcomes follow the test-mode rules.',
  },
  startDate: dateInput('Verifications start at this instant (inclusive).'),
  endDate: dateInput('Verifications are refused from this instant on (exclusive).'),
  offerType: {
    type: 'string',
    enum: ['staticCode', 'rewardPool', 'noCode'],
    description:
      'staticCode: one rewardCode for everyone; rewardPool: single-use codes added with POST ' +
      '/programs/{programId}/rewardCodes; noCode: no code (default).',
  },
  rewardCode: nullableText(256, 'The code of a staticCode offer.'),
  redirectUrl: { type: ['string', 'null'], format: 'uri', maxLength: 2048 },
  consolationRewardCode: nullableText(256, 'Offered when a verification expires.'),
  minAge: {
    ...int32,
    type: ['integer', 'null'],
    description: 'Whole years, 0 to 150 (age and senior programs only).',
  },
  maxAge: { ...int32, type: ['integer', 'null'], description: 'Whole years, 0 to 150, not below minAge.' },
  countries: stringList(300, 'ISO 3166-1 alpha-2 codes accepted; empty or null for every country.'),
  maxRejections: {
    ...int32,
    description: 'Rejected document reviews allowed before uploads are refused, 0 to 10 (default 3).',
  },
  maxReviewTime: nullableText(32, 'One of 2_MIN, 20_MIN, 2_HRS, 24_HRS, 2_DAY, 3_DAY; null for not stated.'),
  estimatedReviewTime: nullableText(
    32,
    'One of A_FEW_MINUTES, A_HALF_HOUR, A_FEW_HOURS, A_FEW_DAYS; null for not stated.',
  ),
  organizationRules: { $ref: '#/components/schemas/OrganizationRulesInput' },
  theme: { $ref: '#/components/schemas/ThemeInput' },
  webhook: { $ref: '#/components/schemas/WebhookInput' },
  verificationLimit: { $ref: '#/components/schemas/VerificationLimitInput' },
  subjectTokenKey: nullableText(
    8192,
    'Public key that verifies compact JWS tokens sent for the program (a DriverLicense step as ' +
      'application/jose, the marketplace token): a JWK as JSON or a PEM SPKI public key ' +
      '(-----BEGIN PUBLIC KEY-----), for ES256 (EC P-256), RS256 (RSA of 2048 bits or more) or EdDSA ' +
      '(Ed25519). At most 8 KiB; a private key is refused. null for none (such tokens are then refused).',
  ),
} as const;

const stringMap = { type: 'object', maxProperties: 1000, additionalProperties: { type: 'string' } } as const;

export const programInputSchemas = {
  ProgramCreateRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['accountId', 'name', 'segment'],
    description: 'A new program of the account. A property given as null is the same as leaving it out.',
    properties: {
      accountId: { type: 'string', pattern: '^[0-9a-f]{24}$' },
      ...programSettings,
    },
  },
  ProgramPatchRequest: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    description:
      'JSON merge patch (application/merge-patch+json or application/json): a property present is set, ' +
      'null clears it, a property left out is unchanged. Objects (theme, organizationRules, webhook, ' +
      'verificationLimit) are replaced as a whole. Setting webhook returns its signingSecret once.',
    properties: programSettings,
  },
  OrganizationRulesInput: {
    type: ['object', 'null'],
    additionalProperties: false,
    description:
      'Which catalogue organizations the program accepts. Empty lists do not restrict; excludeIds wins ' +
      'over everything, includeIds over types and countries.',
    properties: {
      types: { type: 'array', maxItems: 50, items: text(64) },
      countries: { type: 'array', maxItems: 300, items: text(8) },
      includeIds: idList,
      excludeIds: idList,
    },
  },
  ThemeInput: {
    type: ['object', 'null'],
    additionalProperties: false,
    properties: {
      intl: {
        type: 'object',
        additionalProperties: false,
        properties: {
          locale: { type: 'string', maxLength: 35, description: 'BCP 47 language tag, e.g. en-US.' },
          messages: { ...stringMap, description: 'Custom messages keyed by message id.' },
          errorId: { ...stringMap, description: 'User-facing text keyed by error id.' },
        },
      },
      customCss: { type: 'string', maxLength: 100_000, description: 'A CSS stylesheet.' },
    },
  },
  WebhookInput: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['callbackUri'],
    properties: {
      callbackUri: { $ref: '#/components/schemas/CallbackUri' },
      notifierEventTypes: { $ref: '#/components/schemas/NotifierEventTypes' },
    },
  },
  VerificationLimitInput: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['quantity', 'days'],
    properties: {
      quantity: { ...int32, minimum: 1, description: 'Verifications a person may complete (1 to 1000)...' },
      days: { ...int32, minimum: 1, description: '...within this many days (1 to 3650).' },
    },
  },
  CallbackUri: {
    type: 'string',
    format: 'uri',
    maxLength: 2048,
    description:
      'Called with {verificationId} each time a verification of the program succeeds, and with ' +
      '{verificationId, notifierEventType} for each notification the program opted in to (notifierEventTypes).',
  },
  NotifierEventTypes: {
    type: 'array',
    maxItems: webhookNotificationNames.length,
    uniqueItems: true,
    items: { type: 'string', enum: webhookNotificationNames },
    description:
      'Notifications besides success the webhook is also called for (success is always sent): ' +
      'DOCUMENT_REJECTED (a review rejected the documents; the verification is back at docUpload), ' +
      'MAX_DOC_UPLOAD_ATTEMPTS (the last allowed review rejected them; the verification ended in ' +
      'docReviewLimitExceeded), EXPIRATION (an unfinished verification expired). Each delivery names its ' +
      'type in the X-Eligo-Notifier-Event-Type header. Left out: none.',
  },
  VerificationLimitRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['quantity', 'days'],
    properties: {
      quantity: { ...int32, minimum: 1, description: 'Verifications a person may complete (1 to 1000)...' },
      days: { ...int32, minimum: 1, description: '...within this many days (1 to 3650).' },
    },
  },
  WebhookRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['callbackUri'],
    properties: {
      callbackUri: { $ref: '#/components/schemas/CallbackUri' },
      notifierEventTypes: { $ref: '#/components/schemas/NotifierEventTypes' },
    },
  },
  WebhookDeleteRequest: {
    type: 'object',
    additionalProperties: false,
    description: 'Optional; callbackUri is accepted for compatibility and ignored.',
    properties: { callbackUri: { type: 'string', maxLength: 2048 } },
  },
  SendLinkRequest: {
    type: 'object',
    additionalProperties: false,
    description: 'Exactly one of email and phoneNumber.',
    properties: {
      email: {
        type: 'string',
        maxLength: 320,
        description: 'Checked by the service; a malformed one is refused with 400.',
      },
      phoneNumber: {
        type: 'string',
        maxLength: 32,
        description: 'E.164, e.g. +14155550100; checked by the service, a malformed one is refused with 400.',
      },
      trackingId: {
        type: 'string',
        maxLength: 100,
        description: 'Ties the verification that follows to an identifier in your own systems.',
      },
    },
    oneOf: [{ required: ['email'] }, { required: ['phoneNumber'] }],
  },
  RewardCodesRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['codes'],
    properties: {
      codes: { type: 'array', minItems: 1, maxItems: 10_000, items: text(256) },
    },
  },
} as const;
