import {
  ERROR_IDS,
  ESTIMATED_REVIEW_TIMES,
  ID_PATTERN,
  MAX_REVIEW_TIMES,
  ORGANIZATION_TYPES,
  SEGMENTS,
  segmentNames,
} from '@eligo/vocabulary';
import { COUNTRY_PATTERN } from './countries';
import { CONTROL_CHARACTER_CLASS, described, multilineText, TRIMMED_SPACE_CLASS, trimmedName } from './text';

/**
 * Request bodies of the program endpoints: every rule of the programs service that a schema can state (its
 * vocabularies come from the service's own lists), so that what the schema admits the service accepts. What
 * depends on the stored program or compares two fields (endDate after startDate, minAge not above maxAge, an
 * id both included and excluded, the theme's total size, a usable subjectTokenKey) is checked by the service
 * and answered 400 invalidRequest naming the field; each operation's 400 lists them.
 */

/** Limits of services/programs/src/domain (program-validation.ts, codes.ts, countries.ts, theme.ts). */
const MAX_AGE = 150;
const MAX_DOCUMENT_REJECTIONS = 10;
const MAX_ORGANIZATION_IDS = 1000;
const MAX_COUNTRIES = 250;
const MAX_CODE_LENGTH = 128;
export const MAX_URL_LENGTH = 2048;
const MAX_MESSAGES = 500;
const MAX_MESSAGE_LENGTH = 2000;
const MAX_CUSTOM_CSS_BYTES = 65_536;
export const MAX_LIMIT_QUANTITY = 1000;
export const MAX_LIMIT_DAYS = 3650;
/** Segments whose programs may bound the person's age (AGE_BOUNDED_SEGMENTS of the programs service). */
const AGE_BOUNDED_SEGMENTS = ['age', 'senior'] as const;

const SUB_SEGMENTS = [...new Set(Object.values(SEGMENTS).flat())];
const CONTROL = CONTROL_CHARACTER_CLASS;
const SPACE = TRIMMED_SPACE_CLASS;

/**
 * A reward code as a person types it at a checkout: 1 to 128 characters, no whitespace, no control
 * characters. Reward-pool uploads (RewardCodesRequest) may carry surrounding whitespace, which is trimmed.
 */
const CODE = `[^${SPACE}${CONTROL}]{1,${MAX_CODE_LENGTH}}`;
const CODE_MESSAGE = `must be 1 to ${MAX_CODE_LENGTH} characters without whitespace or control characters`;
const code = { type: 'string', pattern: described(`^${CODE}$`, CODE_MESSAGE) } as const;
const paddedCode = {
  type: 'string',
  pattern: described(
    `^[${SPACE}]*${CODE}[${SPACE}]*$`,
    `${CODE_MESSAGE} (surrounding whitespace is trimmed)`,
  ),
} as const;

/**
 * An absolute http or https URL in ASCII, as the programs service's URL check takes it (the WHATWG URL parser
 * with its refusals): a host name of letters, digits and single inner hyphens whose last label starts with a
 * letter (a numeric last label would be read as an IPv4 address), an IPv4 address or a bracketed IPv6 one;
 * a port up to 65535; no user name or password; then a path, query and fragment of the characters RFC 3986
 * allows there (percent-encode anything else), so that the URL is also a `format: uri` when it is answered.
 */
const LABEL = '[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*';
const TOP_LABEL = '[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const H16 = '[0-9A-Fa-f]{1,4}';
const IPV6 = [
  `(?:${H16}:){7}${H16}`,
  `(?:${H16}:){1,7}:`,
  `(?:${H16}:){1,6}:${H16}`,
  `(?:${H16}:){1,5}(?::${H16}){1,2}`,
  `(?:${H16}:){1,4}(?::${H16}){1,3}`,
  `(?:${H16}:){1,3}(?::${H16}){1,4}`,
  `(?:${H16}:){1,2}(?::${H16}){1,5}`,
  `${H16}:(?::${H16}){1,6}`,
  `:(?:(?::${H16}){1,7}|:)`,
].join('|');
const HOST = `(?:(?:${LABEL}\\.)*${TOP_LABEL}|${OCTET}(?:\\.${OCTET}){3}|\\[(?:${IPV6})\\])`;
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?';
const URI_CHARACTER = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})";
export const PATH_AND_QUERY = `(?:[/?]${URI_CHARACTER}*)?`;
export const httpUrl = (rest: string, message: string) =>
  ({
    type: 'string',
    maxLength: MAX_URL_LENGTH,
    pattern: described(`^[Hh][Tt][Tt][Pp][Ss]?://${HOST}${PORT}${rest}$`, message),
  }) as const;
export const URL_MESSAGE =
  'must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password)';

/**
 * Dates as the mapping reads them: YYYY-MM-DD (UTC midnight) or an RFC 3339 date-time with seconds and an
 * upper-case T and Z or a ±hh:mm offset. The year is 0001-9999 (the span of a protobuf Timestamp); a
 * date-time in year 0001 or 9999 could leave that span once its offset is applied, so its year is 0002-9998.
 */
const DD = '(?:0[1-9]|[12][0-9]|3[01])';
const MM = '(?:0[1-9]|1[0-2])';
const YEAR = '(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])';
const INNER_YEAR =
  '(?:[1-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8]|0[1-9][0-9]{2}|00[1-9][0-9]|000[2-9])';
const TIME =
  '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';
const DATE_PATTERN = described(
  `^(?:${YEAR}-${MM}-${DD}|${INNER_YEAR}-${MM}-${DD}T${TIME})$`,
  'must be a date (YYYY-MM-DD) or an RFC 3339 date-time with seconds and Z or an offset (YYYY-MM-DDThh:mm:ssZ)',
);
const dateInput = (description: string) =>
  ({
    type: ['string', 'null'],
    pattern: DATE_PATTERN,
    anyOf: [{ format: 'date' }, { format: 'date-time' }],
    description:
      `${description} \`YYYY-MM-DD\` (UTC midnight) or an RFC 3339 date-time with seconds ` +
      '(`2025-09-01T08:00:00Z`, `...+02:00`); years 0001 to 9999 (0002 to 9998 for a date-time); null for none.',
  }) as const;

const country = { type: 'string', pattern: COUNTRY_PATTERN } as const;
const countries = (description: string) =>
  ({ type: 'array', maxItems: MAX_COUNTRIES, uniqueItems: true, items: country, description }) as const;
const idList = (description: string) =>
  ({
    type: 'array',
    maxItems: MAX_ORGANIZATION_IDS,
    uniqueItems: true,
    items: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    description,
  }) as const;
const age = (description: string) =>
  ({ type: ['integer', 'null'], minimum: 0, maximum: MAX_AGE, description }) as const;
const oneOrNull = (values: readonly string[], description: string) =>
  ({ type: ['string', 'null'], enum: [...values, null], description }) as const;
const verificationLimitProperties = {
  quantity: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT_QUANTITY,
    description: `Verifications a person may complete (1 to ${MAX_LIMIT_QUANTITY})...`,
  },
  days: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT_DAYS,
    description: `...within this many days (1 to ${MAX_LIMIT_DAYS}).`,
  },
} as const;

/** Settings a program is created with and that PATCH changes (the same names and shapes in both). */
const programSettings = {
  name: { ...trimmedName(200), description: 'Trimmed; 1 to 200 characters, no control characters.' },
  segment: {
    type: 'string',
    enum: segmentNames,
    description: 'The audience segment. Cannot be changed later (a PATCH naming another one is 400).',
  },
  subSegments: {
    type: ['array', 'null'],
    maxItems: SUB_SEGMENTS.length,
    uniqueItems: true,
    items: { type: 'string', enum: SUB_SEGMENTS },
    description:
      'Sub-segments a verification may end in, each one of the segment: ' +
      Object.entries(SEGMENTS)
        .filter(([, subs]) => subs.length > 0)
        .map(([segment, subs]) => `${segment} ${subs.join(', ')}`)
        .join('; ') +
      '; none for the others.',
  },
  mode: {
    type: 'string',
    enum: ['test', 'live'],
    description: 'New programs start in test mode, where outcomes follow the test-mode rules.',
  },
  startDate: dateInput('Verifications start at this instant (inclusive).'),
  endDate: dateInput('Verifications are refused from this instant on (exclusive); after startDate.'),
  offerType: {
    type: 'string',
    enum: ['staticCode', 'rewardPool', 'noCode'],
    description:
      'staticCode: one rewardCode for everyone; rewardPool: single-use codes added with POST ' +
      '/programs/{programId}/rewardCodes; noCode: no code (default).',
  },
  rewardCode: {
    ...code,
    type: ['string', 'null'],
    description: `The code of a staticCode offer (required there, refused for the others); ${CODE_MESSAGE}.`,
  },
  redirectUrl: {
    ...httpUrl(`${PATH_AND_QUERY}(?:#${URI_CHARACTER}*)?`, URL_MESSAGE),
    type: ['string', 'null'],
    description: 'Where the form sends a person after a success.',
  },
  consolationRewardCode: {
    ...code,
    type: ['string', 'null'],
    description: `Offered when a verification expires; ${CODE_MESSAGE}.`,
  },
  minAge: age(`Whole years, 0 to ${MAX_AGE}; age and senior programs only.`),
  maxAge: age(`Whole years, 0 to ${MAX_AGE}, not below minAge; age and senior programs only.`),
  countries: {
    ...countries(
      'ISO 3166-1 alpha-2 codes (any case, stored upper case, each once) accepted; empty or null for every country.',
    ),
    type: ['array', 'null'],
  },
  maxRejections: {
    type: 'integer',
    minimum: 0,
    maximum: MAX_DOCUMENT_REJECTIONS,
    description: `Rejected document reviews allowed before uploads are refused, 0 to ${MAX_DOCUMENT_REJECTIONS} (default 3).`,
  },
  maxReviewTime: oneOrNull(MAX_REVIEW_TIMES, 'The longest a document review takes; null for not stated.'),
  estimatedReviewTime: oneOrNull(
    ESTIMATED_REVIEW_TIMES,
    'How long a review usually takes; null for not stated.',
  ),
  organizationRules: { $ref: '#/components/schemas/OrganizationRulesInput' },
  theme: { $ref: '#/components/schemas/ThemeInput' },
  webhook: { $ref: '#/components/schemas/WebhookInput' },
  verificationLimit: { $ref: '#/components/schemas/VerificationLimitInput' },
  subjectTokenKey: {
    // A PEM key is several lines; a JWK may be pretty-printed.
    ...multilineText(8192, 1),
    type: ['string', 'null'],
    description:
      'Public key that verifies compact JWS tokens sent for the program (a DriverLicense step as ' +
      'application/jose, the marketplace token): a JWK as JSON or a PEM SPKI public key ' +
      '(-----BEGIN PUBLIC KEY-----), for ES256 (EC P-256), RS256 (RSA of 2048 bits or more) or EdDSA ' +
      '(Ed25519). At most 8 KiB (UTF-8); a private key is refused (400). Blank or null for none (such tokens ' +
      'are then refused).',
  },
  requireAccountTokenToCreate: {
    type: ['boolean', 'null'],
    description:
      "true: verifications of the program are created only with a token (static or OAuth) of the program's " +
      'account, on every creation path (POST /verification, POST /verification/program/{programId}/step/..., ' +
      'POST /verification/marketplace); any other caller, with no token, an invalid one or another ' +
      "account's, gets 401. The steps of a started verification still need no token. false or null: " +
      'anyone may start one (the default).',
  },
} as const;

/**
 * The rules of a new program that tie one setting to another and a schema can say (on PATCH they involve the
 * stored program, so the service checks them): the sub-segments of its segment, minAge/maxAge for age and
 * senior programs only, and rewardCode with a staticCode offer only (the default offer is noCode).
 */
const segmentRules = segmentNames.map((segment) => ({
  if: { required: ['segment'], properties: { segment: { const: segment } } },
  then: {
    properties: {
      subSegments: SEGMENTS[segment].length
        ? {
            type: ['array', 'null'],
            items: { enum: [...SEGMENTS[segment]], description: `the sub-segments of ${segment}` },
          }
        : { type: ['array', 'null'], maxItems: 0, description: `${segment} programs take no sub-segments` },
    },
  },
}));
const ageRange = { type: 'null', description: 'only age and senior programs take an age range' } as const;
const createRules = [
  ...segmentRules,
  {
    if: { required: ['segment'], properties: { segment: { enum: AGE_BOUNDED_SEGMENTS } } },
    else: { properties: { minAge: ageRange, maxAge: ageRange } },
  },
  {
    if: { required: ['offerType'], properties: { offerType: { const: 'staticCode' } } },
    then: {
      required: ['rewardCode'],
      properties: { rewardCode: { type: 'string', description: 'a staticCode offer needs its rewardCode' } },
      description: 'a staticCode offer needs its rewardCode',
    },
    else: {
      properties: { rewardCode: { type: 'null', description: 'only a staticCode offer takes a rewardCode' } },
    },
  },
];

export const programInputSchemas = {
  ProgramCreateRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['accountId', 'name', 'segment'],
    description:
      'A new program of the account. A property given as null is the same as leaving it out. subSegments ' +
      'must belong to the segment, minAge and maxAge are for age and senior programs only, rewardCode goes ' +
      'with a staticCode offer (and is required there).',
    properties: {
      accountId: { type: 'string', pattern: ID_PATTERN },
      ...programSettings,
    },
    allOf: createRules,
  },
  ProgramPatchRequest: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    description:
      'JSON merge patch (application/merge-patch+json or application/json): a property present is set, ' +
      'null clears it, a property left out is unchanged. Objects (theme, organizationRules, webhook, ' +
      'verificationLimit) are replaced as a whole. Setting webhook returns its signingSecret once. The ' +
      'result must satisfy the rules of ProgramCreateRequest, with the stored settings for those left out.',
    properties: programSettings,
  },
  OrganizationRulesInput: {
    type: ['object', 'null'],
    additionalProperties: false,
    description:
      'Which catalogue organizations the program accepts. Empty lists do not restrict; excludeIds wins ' +
      'over everything, includeIds over types and countries. An id may not be both included and excluded.',
    properties: {
      types: {
        type: 'array',
        maxItems: ORGANIZATION_TYPES.length,
        uniqueItems: true,
        items: { type: 'string', enum: ORGANIZATION_TYPES },
      },
      countries: countries('ISO 3166-1 alpha-2 codes (any case, each once).'),
      includeIds: idList(`Organization ids (positive integers, each once, at most ${MAX_ORGANIZATION_IDS}).`),
      excludeIds: idList(`Organization ids (positive integers, each once, at most ${MAX_ORGANIZATION_IDS}).`),
    },
  },
  ThemeInput: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'At most 256 KiB in all (UTF-8: locale, message keys and texts, CSS); more is 400.',
    properties: {
      intl: {
        type: 'object',
        additionalProperties: false,
        properties: {
          locale: {
            type: 'string',
            maxLength: 35,
            pattern: described(
              '^(?:|(?:[A-Za-z]{2,3}|[A-Za-z]{5,8})(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?' +
                '(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))?)$',
              'must be a BCP 47 language tag (language[-Script][-REGION][-variant], e.g. en-US), or empty',
            ),
            description: 'BCP 47 language tag, e.g. en-US (stored in canonical case); empty for the default.',
          },
          messages: {
            type: 'object',
            maxProperties: MAX_MESSAGES,
            propertyNames: {
              pattern: described('^[A-Za-z0-9_.-]{1,100}$', 'must be 1 to 100 letters, digits, _ . or -'),
            },
            additionalProperties: multilineText(MAX_MESSAGE_LENGTH),
            description: `Custom messages keyed by message id (at most ${MAX_MESSAGES}).`,
          },
          errorId: {
            type: 'object',
            propertyNames: { enum: ERROR_IDS },
            additionalProperties: multilineText(MAX_MESSAGE_LENGTH),
            description:
              'User-facing text keyed by error id (one of the errorIds GET /program/{id}/theme lists).',
          },
        },
      },
      customCss: {
        type: 'string',
        maxLength: MAX_CUSTOM_CSS_BYTES,
        // multilineText's rule, plus "<", and with the form feed, which CSS counts as a line break.
        pattern: described(
          '^[^<\\u0000-\\u0008\\u000b\\u000e-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$',
          'must not contain "<" (write \\3c in strings) or control characters other than tabs and line breaks',
        ),
        description: `A CSS stylesheet of at most ${MAX_CUSTOM_CSS_BYTES} bytes (UTF-8), without "<".`,
      },
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
    properties: verificationLimitProperties,
  },
  RewardCodesRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['codes'],
    properties: {
      codes: {
        type: 'array',
        minItems: 1,
        maxItems: 10_000,
        items: paddedCode,
        description: `Codes to add (each ${CODE_MESSAGE}; surrounding whitespace is trimmed; repeats are added once).`,
      },
    },
  },
} as const;
