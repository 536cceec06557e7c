import { z } from 'zod';
import {
  ERROR_IDS,
  ESTIMATED_REVIEW_TIMES,
  ID_PATTERN,
  MAX_REVIEW_TIMES,
  ORGANIZATION_TYPES,
  SEGMENTS,
  segmentNames,
} from '@eligo/vocabulary';
import { COUNTRY_PATTERN } from '../openapi/schemas/countries';
import { multilineText, trimmedName } from '../openapi/schemas/text';
import { VerificationLimitRequest, WebhookRequest } from './program';
import {
  CODE_MESSAGE,
  CODE_PATTERN,
  CUSTOM_CSS_PATTERN,
  DATE_PATTERN,
  httpUrl,
  LOCALE_MAX_LENGTH,
  LOCALE_KEY_PATTERN,
  LOCALE_PATTERN,
  MAX_AGE,
  MAX_COUNTRIES,
  MAX_CUSTOM_CSS_BYTES,
  MAX_DOCUMENT_REJECTIONS,
  MAX_EMBED_ORIGIN_LENGTH,
  MAX_EMBED_ORIGINS,
  MAX_MESSAGE_LENGTH,
  MAX_MESSAGES,
  MAX_THEME_LOCALES,
  MAX_ORGANIZATION_IDS,
  MAX_REWARD_CODES,
  MAX_SUBJECT_TOKEN_KEY_LENGTH,
  MESSAGE_KEY_PATTERN,
  ORIGIN_PATTERN,
  PADDED_CODE_PATTERN,
  PATH_AND_QUERY,
  PATH_QUERY_AND_FRAGMENT,
  SUB_SEGMENTS,
  URL_MESSAGE,
} from './program-input-rules';
import { fromStringSchema, patterned, uniqueItems } from './schemas';
import { mapOf } from './schemas-maps';
import { dateOrNull, oneOrNull, orNullTypeFirst } from './schemas-nullable';
import { boundedInteger } from './schemas-numbers';

/**
 * Request bodies of the admin API's program endpoints: every rule of the programs service that a schema can
 * state (its vocabularies come from the service's own lists), so that what the schema admits the service
 * accepts. What depends on the stored program or compares two fields (endDate after startDate, minAge not
 * above maxAge, an id both included and excluded, the theme's total size, a usable subjectTokenKey) is
 * checked by the service and answered 400 invalidRequest naming the field; each operation's 400 lists them.
 */

const countries = (description: string) =>
  uniqueItems(z.array(patterned(COUNTRY_PATTERN)).max(MAX_COUNTRIES)).meta({ description });
const organizationIds = () =>
  uniqueItems(z.array(boundedInteger(1, Number.MAX_SAFE_INTEGER)).max(MAX_ORGANIZATION_IDS)).meta({
    description: `Organization ids (positive integers, each once, at most ${MAX_ORGANIZATION_IDS}).`,
  });

export const OrganizationRulesInput = orNullTypeFirst(
  z.strictObject({
    types: uniqueItems(z.array(z.enum(ORGANIZATION_TYPES)).max(ORGANIZATION_TYPES.length)).optional(),
    countries: countries('ISO 3166-1 alpha-2 codes (any case, each once).').optional(),
    includeIds: organizationIds().optional(),
    excludeIds: organizationIds().optional(),
  }),
).meta({
  id: 'OrganizationRulesInput',
  description:
    'Which catalogue organizations the program accepts. Empty lists do not restrict; excludeIds wins ' +
    'over everything, includeIds over types and countries. An id may not be both included and excluded.',
});

const messageText = () => fromStringSchema(multilineText(MAX_MESSAGE_LENGTH));

/** The texts of a theme, its own and each translation's. */
const themeTexts = () => ({
  messages: mapOf({
    key: { pattern: MESSAGE_KEY_PATTERN },
    value: messageText(),
    maxProperties: MAX_MESSAGES,
    description: `Custom messages keyed by message id (at most ${MAX_MESSAGES}).`,
  }).optional(),
  errorId: mapOf({
    key: { enum: ERROR_IDS },
    value: messageText(),
    description: 'User-facing text keyed by error id (one of the errorIds GET /program/{id}/theme lists).',
  }).optional(),
});

export const ThemeInput = orNullTypeFirst(
  z.strictObject({
    intl: z
      .strictObject({
        locale: fromStringSchema({ type: 'string', maxLength: LOCALE_MAX_LENGTH, pattern: LOCALE_PATTERN })
          .meta({
            description: 'BCP 47 language tag, e.g. en-US (stored in canonical case); empty for the default.',
          })
          .optional(),
        ...themeTexts(),
        locales: mapOf({
          key: { pattern: LOCALE_KEY_PATTERN },
          value: z.strictObject(themeTexts()),
          maxProperties: MAX_THEME_LOCALES,
          description:
            `Translations keyed by BCP 47 tag (e.g. fr-FR, de; at most ${MAX_THEME_LOCALES}, stored in ` +
            "canonical case): the hosted page shown in that locale (its ?locale=, else the browser's " +
            "languages, else the theme's locale) uses these texts, key by key, over messages and errorId " +
            'above; a key a translation leaves out keeps the text above.',
        }).optional(),
      })
      .optional(),
    customCss: fromStringSchema({
      type: 'string',
      maxLength: MAX_CUSTOM_CSS_BYTES,
      pattern: CUSTOM_CSS_PATTERN,
    })
      .meta({
        description: `A CSS stylesheet of at most ${MAX_CUSTOM_CSS_BYTES} bytes (UTF-8), without "<".`,
      })
      .optional(),
  }),
).meta({
  id: 'ThemeInput',
  description: 'At most 256 KiB in all (UTF-8: locale, message keys and texts, CSS); more is 400.',
});

/** The webhook setting: REST v2's WebhookRequest, or null. */
export const WebhookInput = orNullTypeFirst(z.strictObject(WebhookRequest.shape)).meta({
  id: 'WebhookInput',
});

/** The verification limit setting: REST v2's VerificationLimitRequest, or null. */
export const VerificationLimitInput = orNullTypeFirst(z.strictObject(VerificationLimitRequest.shape)).meta({
  id: 'VerificationLimitInput',
});

const age = (description: string) =>
  orNullTypeFirst(boundedInteger(0, MAX_AGE)).meta({ description }).optional();
const code = (description: string) =>
  orNullTypeFirst(patterned(CODE_PATTERN)).meta({ description }).optional();
const instant = (description: string) =>
  dateOrNull(
    DATE_PATTERN,
    `${description} \`YYYY-MM-DD\` (UTC midnight) or an RFC 3339 date-time with seconds ` +
      '(`2025-09-01T08:00:00Z`, `...+02:00`); years 0001 to 9999 (0002 to 9998 for a date-time); null for none.',
  ).optional();

export const ProgramName = fromStringSchema(trimmedName(200)).meta({
  description: 'Trimmed; 1 to 200 characters, no control characters.',
});
export const Segment = z.enum(segmentNames).meta({
  description: 'The audience segment. Cannot be changed later (a PATCH naming another one is 400).',
});

/** whsec_ + base64 of 24 to 64 bytes (32 to 88 characters): a Standard Webhooks secret. */
const SOURCE_SECRET_PATTERN = '^whsec_[A-Za-z0-9+/]{32,86}={0,2}$';

/** The instant-match setting (issue 22): the sources a live program asks, in order, and the HTTP endpoint. */
export const InstantMatchInput = orNullTypeFirst(
  z.strictObject({
    sources: z
      .array(
        z.strictObject({
          type: z.enum(['list', 'http']).meta({
            description:
              "list: the program's customer eligibility list; http: the business's endpoint (http.url).",
          }),
          subSegments: uniqueItems(z.array(z.enum(SUB_SEGMENTS)).max(SUB_SEGMENTS.length))
            .meta({
              description: "The program's sub-segments the source is asked for; absent or []: every one.",
            })
            .optional(),
        }),
      )
      .max(2)
      .meta({ description: 'In the order they are asked (the first match wins); each type at most once.' }),
    http: z
      .strictObject({
        url: fromStringSchema(httpUrl(PATH_AND_QUERY, `${URL_MESSAGE}, without a fragment (#)`)).meta({
          description:
            'Where Eligo POSTs the signed subject. The webhook address rules apply: an IP address host must be ' +
            'public unless ELIGO_WEBHOOK_ALLOW_CIDRS allows its range; names are checked when connecting.',
        }),
        secret: patterned(SOURCE_SECRET_PATTERN)
          .meta({
            description:
              'Standard Webhooks secret (whsec_ + base64 of 24 to 64 bytes) that signs the request and must sign ' +
              'the answer. Write-only: never answered. Required with a new url; left out, the stored one is kept.',
          })
          .optional(),
      })
      .meta({ description: 'Required with an http source, refused without one.' })
      .optional(),
    emailLoop: z
      .boolean()
      .meta({
        description:
          'Offer the email loop: a live submission no source matched, whose email is at a domain of the ' +
          'chosen organization, gets a one-time code by mail (step emailLoop) instead of document review. ' +
          'Default false.',
      })
      .optional(),
  }),
)
  .meta({
    description:
      'Instant-match sources of a live program (test mode keeps its first-name triggers): when a submission ' +
      'would go to document review (or to the social security number), the sources are asked in order and ' +
      'the first match is a success with verificationMethod LIST or HTTP_SOURCE. null or sources [] for none.',
  })
  .optional();

/** Settings a program is created with and that PATCH changes (the same names and shapes in both). */
export const programSettings = {
  name: ProgramName.optional(),
  segment: Segment.optional(),
  subSegments: orNullTypeFirst(uniqueItems(z.array(z.enum(SUB_SEGMENTS)).max(SUB_SEGMENTS.length)))
    .meta({
      description:
        'Sub-segments a verification may end in, each one of the segment: ' +
        Object.entries(SEGMENTS)
          .filter(([, subs]) => subs.length > 0)
          .map(([segment, subs]) => `${segment} ${subs.join(', ')}`)
          .join('; ') +
        '; none for the others.',
    })
    .optional(),
  mode: z
    .enum(['test', 'live'])
    .meta({ description: 'New programs start in test mode, where outcomes follow the test-mode rules.' })
    .optional(),
  startDate: instant('Verifications start at this instant (inclusive).'),
  endDate: instant('Verifications are refused from this instant on (exclusive); after startDate.'),
  offerType: z
    .enum(['staticCode', 'rewardPool', 'noCode'])
    .meta({
      description:
        'staticCode: one rewardCode for everyone; rewardPool: single-use codes added with POST ' +
        '/programs/{programId}/rewardCodes; noCode: no code (default).',
    })
    .optional(),
  rewardCode: code(
    `The code of a staticCode offer (required there, refused for the others); ${CODE_MESSAGE}.`,
  ),
  redirectUrl: orNullTypeFirst(fromStringSchema(httpUrl(PATH_QUERY_AND_FRAGMENT, URL_MESSAGE)))
    .meta({ description: 'Where the form sends a person after a success.' })
    .optional(),
  consolationRewardCode: code(`Offered when a verification expires; ${CODE_MESSAGE}.`),
  minAge: age(`Whole years, 0 to ${MAX_AGE}; age and senior programs only.`),
  maxAge: age(`Whole years, 0 to ${MAX_AGE}, not below minAge; age and senior programs only.`),
  countries: orNullTypeFirst(
    countries(
      'ISO 3166-1 alpha-2 codes (any case, stored upper case, each once) accepted; empty or null for every country.',
    ),
  ).optional(),
  maxRejections: boundedInteger(0, MAX_DOCUMENT_REJECTIONS)
    .meta({
      description: `Rejected document reviews allowed before uploads are refused, 0 to ${MAX_DOCUMENT_REJECTIONS} (default 3).`,
    })
    .optional(),
  maxReviewTime: oneOrNull(
    MAX_REVIEW_TIMES,
    'The longest a document review takes; null for not stated.',
  ).optional(),
  estimatedReviewTime: oneOrNull(
    ESTIMATED_REVIEW_TIMES,
    'How long a review usually takes; null for not stated.',
  ).optional(),
  organizationRules: OrganizationRulesInput.optional(),
  theme: ThemeInput.optional(),
  webhook: WebhookInput.optional(),
  verificationLimit: VerificationLimitInput.optional(),
  subjectTokenKey: orNullTypeFirst(fromStringSchema(multilineText(MAX_SUBJECT_TOKEN_KEY_LENGTH, 1)))
    .meta({
      description:
        'Public key that verifies compact JWS tokens sent for the program (a DriverLicense step as ' +
        'application/jose, the marketplace token): a JWK as JSON or a PEM SPKI public key ' +
        '(-----BEGIN PUBLIC KEY-----), for ES256 (EC P-256), RS256 (RSA of 2048 bits or more) or EdDSA ' +
        '(Ed25519). At most 8 KiB (UTF-8); a private key is refused (400). Blank or null for none (such ' +
        'tokens are then refused).',
    })
    .optional(),
  requireAccountTokenToCreate: orNullTypeFirst(z.boolean())
    .meta({
      description:
        "true: verifications of the program are created only with a token (static or OAuth) of the program's " +
        'account, on every creation path (POST /verification, POST /verification/program/{programId}/step/..., ' +
        'POST /verification/marketplace); any other caller, with no token, an invalid one or another ' +
        "account's, gets 401. The steps of a started verification still need no token. false or null: " +
        'anyone may start one (the default).',
    })
    .optional(),
  embedOrigins: orNullTypeFirst(
    uniqueItems(
      z
        .array(
          fromStringSchema({ type: 'string', maxLength: MAX_EMBED_ORIGIN_LENGTH, pattern: ORIGIN_PATTERN }),
        )
        .max(MAX_EMBED_ORIGINS),
    ),
  )
    .meta({
      description:
        "Web origins allowed to embed the program's hosted verification page (the CSP frame-ancestors of " +
        '/verify/{programId}) and to call the public REST v2 endpoints from a browser (CORS). Each is ' +
        'https://host[:port], or http://localhost[:port] or http://127.0.0.1[:port] for development (taken ' +
        'in test and live mode alike): no path, query, fragment, user name or trailing slash, and no ' +
        'wildcard (https://*.example.com is refused in this version: list each origin). Stored normalised, ' +
        'the scheme and host in lower case and the default port left out (https://Shop.Example:443 is ' +
        `https://shop.example); at most ${MAX_EMBED_ORIGINS}, each at most ${MAX_EMBED_ORIGIN_LENGTH} ` +
        'characters, no two the same once normalised. Empty or null for none (the default): no other site ' +
        'may embed the page or call the API from a browser.',
    })
    .optional(),
  instantMatch: InstantMatchInput,
};

/** The program's account: a hex id (a malformed one is refused here; an unknown one is 404 noAccount). */
export const programAccountId = patterned(ID_PATTERN);

export const ProgramPatchRequest = z
  .preprocess((value, ctx) => {
    // Ajv checks minProperties before the properties; an empty patch has nothing to check besides.
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length < 1)
      ctx.addIssue({ code: 'custom', message: 'must NOT have fewer than 1 properties', input: value });
    return value;
  }, z.strictObject(programSettings))
  .meta({
    id: 'ProgramPatchRequest',
    minProperties: 1,
    description:
      'JSON merge patch (application/merge-patch+json or application/json): a property present is set, ' +
      'null clears it, a property left out is unchanged. Objects (theme, organizationRules, webhook, ' +
      'verificationLimit) are replaced as a whole. Setting webhook returns its signingSecret once. The ' +
      'result must satisfy the rules of ProgramCreateRequest, with the stored settings for those left out.',
  });

export const RewardCodesRequest = z
  .strictObject({
    codes: z
      .array(patterned(PADDED_CODE_PATTERN))
      .min(1)
      .max(MAX_REWARD_CODES)
      .meta({
        description: `Codes to add (each ${CODE_MESSAGE}; surrounding whitespace is trimmed; repeats are added once).`,
      }),
  })
  .meta({ id: 'RewardCodesRequest' });
