import type { z } from 'zod';
import { ajvSaidBefore, zodSays } from '../../test/check-answers';
import {
  OrganizationRulesInput,
  ProgramPatchRequest,
  RewardCodesRequest,
  ThemeInput,
  VerificationLimitInput,
  WebhookInput,
} from './admin-programs-input';

// The OpenAPI validator (Ajv) as it checked the hand-written schemas, over the document captured before the
// endpoints became definitions: the zod checks of a program's settings (ProgramPatchRequest and its parts)
// and of reward codes must accept and refuse the same bodies, in the same words.
const schemas: Record<string, z.ZodType> = {
  ProgramPatchRequest,
  RewardCodesRequest,
  OrganizationRulesInput,
  ThemeInput,
  WebhookInput,
  VerificationLimitInput,
};

const hook = 'https://hooks.example.com/eligo';
const emoji = (n: number) => '\u{1F600}'.repeat(n);
const notAnOrigin =
  'must be a web origin in ASCII, https://host[:port] (http only for localhost and 127.0.0.1), without path, ' +
  'query, fragment, user name or trailing slash; wildcards (https://*.example.com) are not allowed in this ' +
  'version: list each origin';

/** [schema, body, what the OpenAPI validator answered (undefined: accepted)]. */
const cases: [string, unknown, string | undefined][] = [
  // Accepted.
  [
    'ProgramPatchRequest',
    { theme: null, webhook: null, verificationLimit: null, organizationRules: null },
    undefined,
  ],
  ['ProgramPatchRequest', { rewardCode: 'SPRING', minAge: 150, subSegments: ['nurse'] }, undefined],
  ['RewardCodesRequest', { codes: [' A1 ', 'B2\t'] }, undefined],
  // Not an object, missing, unexpected.
  ['ProgramPatchRequest', 'text', 'body must be object'],
  ['ProgramPatchRequest', {}, 'body must NOT have fewer than 1 properties'],
  [
    'ProgramPatchRequest',
    { colour: 'red', name: 5 },
    'body has unexpected property colour (allowed: name, segment, subSegments, mode, startDate, endDate, offerType, rewardCode, redirectUrl, consolationRewardCode, minAge, maxAge, countries, maxRejections, maxReviewTime, estimatedReviewTime, organizationRules, theme, webhook, verificationLimit, subjectTokenKey, requireAccountTokenToCreate, embedOrigins, instantMatch)',
  ],
  ['RewardCodesRequest', {}, 'body.codes is required'],
  [
    'RewardCodesRequest',
    { codes: ['A'], extra: true },
    'body has unexpected property extra (allowed: codes)',
  ],
  // Wrong types, null where it is not allowed.
  ['ProgramPatchRequest', { name: null }, 'body.name must be string'],
  ['ProgramPatchRequest', { minAge: '18' }, 'body.minAge must be integer or null'],
  ['ProgramPatchRequest', { maxAge: 1.5 }, 'body.maxAge must be integer or null'],
  ['ProgramPatchRequest', { maxRejections: null }, 'body.maxRejections must be integer'],
  ['ProgramPatchRequest', { subSegments: 'veteran' }, 'body.subSegments must be array or null'],
  ['ProgramPatchRequest', { countries: 'US' }, 'body.countries must be array or null'],
  ['ProgramPatchRequest', { endDate: 5 }, 'body.endDate must be string or null'],
  [
    'ProgramPatchRequest',
    { requireAccountTokenToCreate: 'yes' },
    'body.requireAccountTokenToCreate must be boolean or null',
  ],
  ['ProgramPatchRequest', { maxReviewTime: 5 }, 'body.maxReviewTime must be string or null'],
  ['ProgramPatchRequest', { theme: 'dark' }, 'body.theme must be object or null'],
  ['ProgramPatchRequest', { verificationLimit: [] }, 'body.verificationLimit must be object or null'],
  ['RewardCodesRequest', { codes: 'A' }, 'body.codes must be array'],
  ['RewardCodesRequest', { codes: ['A', 2] }, 'body.codes[1] must be string'],
  // Out of range, too long, too many.
  ['ProgramPatchRequest', { maxAge: 151 }, 'body.maxAge must be <= 150'],
  ['ProgramPatchRequest', { minAge: 1e22 }, 'body.minAge must be <= 150'],
  ['ProgramPatchRequest', { maxRejections: 11 }, 'body.maxRejections must be <= 10'],
  ['ProgramPatchRequest', { maxRejections: -1.5 }, 'body.maxRejections must be integer'],
  [
    'ProgramPatchRequest',
    { name: 'x'.repeat(201) },
    'body.name must be 1 to 200 characters once trimmed, without control characters',
  ],
  [
    'ProgramPatchRequest',
    { rewardCode: 'C'.repeat(129) },
    'body.rewardCode must be 1 to 128 characters without whitespace or control characters',
  ],
  [
    'ProgramPatchRequest',
    { redirectUrl: `https://shop.example.com/${'a'.repeat(2030)}` },
    'body.redirectUrl must NOT have more than 2048 characters',
  ],
  [
    'ProgramPatchRequest',
    { subjectTokenKey: 'k'.repeat(8193) },
    'body.subjectTokenKey must NOT have more than 8192 characters',
  ],
  [
    'ProgramPatchRequest',
    { subjectTokenKey: '' },
    'body.subjectTokenKey must NOT have fewer than 1 characters',
  ],
  [
    'ProgramPatchRequest',
    { countries: Array(251).fill('US') },
    'body.countries must NOT have more than 250 items',
  ],
  [
    'ProgramPatchRequest',
    { subSegments: Array(29).fill('veteran') },
    'body.subSegments must NOT have more than 28 items',
  ],
  ['RewardCodesRequest', { codes: [] }, 'body.codes must NOT have fewer than 1 items'],
  [
    'RewardCodesRequest',
    { codes: Array(10_001).fill('A') },
    'body.codes must NOT have more than 10000 items',
  ],
  // Patterns, formats, control characters.
  [
    'ProgramPatchRequest',
    { name: ' \t ' },
    'body.name must be 1 to 200 characters once trimmed, without control characters',
  ],
  [
    'ProgramPatchRequest',
    { rewardCode: 'SPRING 25' },
    'body.rewardCode must be 1 to 128 characters without whitespace or control characters',
  ],
  [
    'ProgramPatchRequest',
    { consolationRewardCode: 'A\u00a0' },
    'body.consolationRewardCode must be 1 to 128 characters without whitespace or control characters',
  ],
  [
    'ProgramPatchRequest',
    { redirectUrl: 'javascript:alert(1)' },
    'body.redirectUrl must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password)',
  ],
  [
    'ProgramPatchRequest',
    { startDate: '2024-02-30' },
    'body.startDate must match format "date", or must match format "date-time"',
  ],
  [
    'ProgramPatchRequest',
    { startDate: 'garbage' },
    'body.startDate must match format "date", or must match format "date-time"',
  ],
  [
    'ProgramPatchRequest',
    { startDate: '0000-12-31' },
    'body.startDate must be a date (YYYY-MM-DD) or an RFC 3339 date-time with seconds and Z or an offset (YYYY-MM-DDThh:mm:ssZ)',
  ],
  [
    'ProgramPatchRequest',
    { endDate: '2016-12-31T23:59:60Z' },
    'body.endDate must be a date (YYYY-MM-DD) or an RFC 3339 date-time with seconds and Z or an offset (YYYY-MM-DDThh:mm:ssZ)',
  ],
  [
    'ProgramPatchRequest',
    { endDate: '2030-01-01t00:00:00z' },
    'body.endDate must be a date (YYYY-MM-DD) or an RFC 3339 date-time with seconds and Z or an offset (YYYY-MM-DDThh:mm:ssZ)',
  ],
  [
    'ProgramPatchRequest',
    { subjectTokenKey: 'key\u0007' },
    'body.subjectTokenKey must not contain control characters other than tabs and line breaks',
  ],
  [
    'ProgramPatchRequest',
    { countries: ['US', 'XX'] },
    'body.countries[1] must be an ISO 3166-1 alpha-2 country code',
  ],
  [
    'RewardCodesRequest',
    { codes: ['A1', 'B 2'] },
    'body.codes[1] must be 1 to 128 characters without whitespace or control characters (surrounding whitespace is trimmed)',
  ],
  [
    'RewardCodesRequest',
    { codes: ['A\u0000'] },
    'body.codes[0] must be 1 to 128 characters without whitespace or control characters (surrounding whitespace is trimmed)',
  ],
  // Wrong enum values, duplicates.
  ['ProgramPatchRequest', { mode: 'prod' }, 'body.mode must be one of test, live'],
  ['ProgramPatchRequest', { offerType: 5 }, 'body.offerType must be string'],
  [
    'ProgramPatchRequest',
    { maxReviewTime: '1_WEEK' },
    'body.maxReviewTime must be one of 2_MIN, 20_MIN, 2_HRS, 24_HRS, 2_DAY, 3_DAY, ',
  ],
  [
    'ProgramPatchRequest',
    { estimatedReviewTime: 'SOON' },
    'body.estimatedReviewTime must be one of A_FEW_MINUTES, A_HALF_HOUR, A_FEW_HOURS, A_FEW_DAYS, ',
  ],
  [
    'ProgramPatchRequest',
    { subSegments: ['veteran', 'veteran'] },
    'body.subSegments must NOT have duplicate items (items ## 1 and 0 are identical)',
  ],
  [
    'ProgramPatchRequest',
    { subSegments: ['pirate', 'pirate'] },
    'body.subSegments[0] must be one of activeDuty, veteran, reservist, militaryRetiree, militaryFamily, goldStarFamily, police, emt, fireFighter, searchAndRescue, nurse, doctor, dentist, pharmacist, otherHealthWorker, licensedCosmetologist, licensedRealEstateAgent, veterinarian, childCareWorker, librarian, interiorDesigner, architect, generalContractor, nutritionProfessional, homeBuyer, otherMover, snapBenefits, otherGovernmentAssistance',
  ],
  [
    'ProgramPatchRequest',
    { countries: ['US', 'US'] },
    'body.countries must NOT have duplicate items (items ## 1 and 0 are identical)',
  ],
  // Nested settings.
  ['ProgramPatchRequest', { webhook: {} }, 'body.webhook.callbackUri is required'],
  [
    'ProgramPatchRequest',
    { webhook: { callbackUri: `${hook}#x` } },
    'body.webhook.callbackUri must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password), without a fragment (#)',
  ],
  [
    'ProgramPatchRequest',
    { webhook: { callbackUri: hook, notifierEventTypes: ['expiration'] } },
    'body.webhook.notifierEventTypes[0] must be one of DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, EXPIRATION',
  ],
  [
    'ProgramPatchRequest',
    { webhook: { callbackUri: hook, notifierEventTypes: ['EXPIRATION', 'EXPIRATION'] } },
    'body.webhook.notifierEventTypes must NOT have duplicate items (items ## 1 and 0 are identical)',
  ],
  [
    'ProgramPatchRequest',
    { webhook: { callbackUri: hook, secret: 'x' } },
    'body.webhook has unexpected property secret (allowed: callbackUri, notifierEventTypes)',
  ],
  [
    'ProgramPatchRequest',
    { verificationLimit: { quantity: 'x', days: 1 } },
    'body.verificationLimit.quantity must be integer',
  ],
  ['ProgramPatchRequest', { verificationLimit: { quantity: 1 } }, 'body.verificationLimit.days is required'],
  [
    'ProgramPatchRequest',
    { verificationLimit: { quantity: 1e22, days: 1 } },
    'body.verificationLimit.quantity must be <= 1000',
  ],
  [
    'ProgramPatchRequest',
    { verificationLimit: { quantity: 1, days: 3651 } },
    'body.verificationLimit.days must be <= 3650',
  ],
  [
    'ProgramPatchRequest',
    { organizationRules: { types: ['PUB'] } },
    'body.organizationRules.types[0] must be one of UNIVERSITY, POST_SECONDARY, HIGH_SCHOOL, K12, MILITARY, FIRST_RESPONDER, MEDICAL, CORPORATE, MEMBERSHIP, NON_PROFIT, GOVERNMENT, OTHER',
  ],
  [
    'ProgramPatchRequest',
    { organizationRules: { includeIds: [7, 7] } },
    'body.organizationRules.includeIds must NOT have duplicate items (items ## 1 and 0 are identical)',
  ],
  [
    'ProgramPatchRequest',
    { organizationRules: { includeIds: [1e22] } },
    'body.organizationRules.includeIds[0] must be <= 9007199254740991',
  ],
  [
    'ProgramPatchRequest',
    { organizationRules: { excludeIds: [0] } },
    'body.organizationRules.excludeIds[0] must be >= 1',
  ],
  [
    'ProgramPatchRequest',
    { organizationRules: { countries: ['us', 'us'] } },
    'body.organizationRules.countries must NOT have duplicate items (items ## 1 and 0 are identical)',
  ],
  [
    'ProgramPatchRequest',
    { organizationRules: { colour: 1 } },
    'body.organizationRules has unexpected property colour (allowed: types, countries, includeIds, excludeIds)',
  ],
  [
    'ProgramPatchRequest',
    { theme: { intl: { colour: 'red' } } },
    'body.theme.intl has unexpected property colour (allowed: locale, messages, errorId, locales)',
  ],
  [
    'ProgramPatchRequest',
    { theme: { intl: { locale: 'x-klingon' } } },
    'body.theme.intl.locale must be a BCP 47 language tag (language[-Script][-REGION][-variant], e.g. en-US), or empty',
  ],
  [
    'ProgramPatchRequest',
    { theme: { intl: { locale: 'x'.repeat(36) } } },
    'body.theme.intl.locale must NOT have more than 35 characters',
  ],
  [
    'ProgramPatchRequest',
    { theme: { intl: { messages: { 'form title': 'x' } } } },
    'body.theme.intl.messages key "form title" must be 1 to 100 letters, digits, _ . or -',
  ],
  [
    'ProgramPatchRequest',
    { theme: { intl: { messages: { ok: 5, 'form title': 'x' } } } },
    'body.theme.intl.messages key "form title" must be 1 to 100 letters, digits, _ . or -',
  ],
  [
    'ProgramPatchRequest',
    { theme: { intl: { messages: { 'a.b': 1 } } } },
    'body.theme.intl.messages["a.b"] must be string',
  ],
  [
    'ProgramPatchRequest',
    { theme: { intl: { messages: { ok: emoji(2001) } } } },
    'body.theme.intl.messages.ok must NOT have more than 2000 characters',
  ],
  [
    'ProgramPatchRequest',
    { theme: { intl: { messages: { ok: 'a\u0001' } } } },
    'body.theme.intl.messages.ok must not contain control characters other than tabs and line breaks',
  ],
  [
    'ProgramPatchRequest',
    {
      theme: {
        intl: { messages: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`m${i}`, 'x'])) },
      },
    },
    'body.theme.intl.messages must NOT have more than 500 properties',
  ],
  ['ProgramPatchRequest', { theme: { intl: { messages: [] } } }, 'body.theme.intl.messages must be object'],
  [
    'ProgramPatchRequest',
    { theme: { intl: { errorId: { invalidEmail: null } } } },
    'body.theme.intl.errorId.invalidEmail must be string',
  ],
  [
    'ProgramPatchRequest',
    { theme: { customCss: '</style><script>' } },
    'body.theme.customCss must not contain "<" (write \\3c in strings) or control characters other than tabs and line breaks',
  ],
  ['ProgramPatchRequest', { theme: { customCss: 'a{}\f' } }, undefined],
  // embedOrigins, added since the capture (test/document-before.ts): the served document's statement.
  [
    'ProgramPatchRequest',
    {
      embedOrigins: [
        'https://shop.example.com',
        'https://Shop.Example:443',
        'HTTPS://checkout.shop.example:8443',
        'http://localhost:3000',
        'http://LOCALHOST',
        'http://127.0.0.1:5173',
        'https://xn--bcher-kva.example',
        'https://192.0.2.10',
        'https://[2001:db8::1]:8443',
      ],
    },
    undefined,
  ],
  ['ProgramPatchRequest', { embedOrigins: [] }, undefined],
  // instantMatch, added since the capture (issue 22): the served document's statement.
  [
    'ProgramPatchRequest',
    {
      instantMatch: {
        sources: [{ type: 'list', subSegments: [] }, { type: 'http' }],
        http: { url: 'https://hr.example.com/check', secret: `whsec_${'A'.repeat(43)}=` },
      },
    },
    undefined,
  ],
  ['ProgramPatchRequest', { instantMatch: null }, undefined],
  ['ProgramPatchRequest', { instantMatch: { sources: [] } }, undefined],
  ['ProgramPatchRequest', { instantMatch: {} }, 'body.instantMatch.sources is required'],
  [
    'ProgramPatchRequest',
    { instantMatch: { sources: [{ type: 'ldap' }] } },
    'body.instantMatch.sources[0].type must be one of list, http',
  ],
  [
    'ProgramPatchRequest',
    { instantMatch: { sources: [], http: { url: 'https://hr.example.com/', secret: 'hunter2' } } },
    'body.instantMatch.http.secret must match pattern "^whsec_[A-Za-z0-9+/]{32,86}={0,2}$"',
  ],
  ['ProgramPatchRequest', { embedOrigins: null }, undefined],
  [
    'ProgramPatchRequest',
    { embedOrigins: 'https://shop.example' },
    'body.embedOrigins must be array or null',
  ],
  ['ProgramPatchRequest', { embedOrigins: [5] }, 'body.embedOrigins[0] must be string'],
  ['ProgramPatchRequest', { embedOrigins: ['https://*.example.com'] }, `body.embedOrigins[0] ${notAnOrigin}`],
  ['ProgramPatchRequest', { embedOrigins: ['*'] }, `body.embedOrigins[0] ${notAnOrigin}`],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://a.example', 'https://shop.example/'] },
    `body.embedOrigins[1] ${notAnOrigin}`,
  ],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://shop.example/checkout'] },
    `body.embedOrigins[0] ${notAnOrigin}`,
  ],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://shop.example?a=1'] },
    `body.embedOrigins[0] ${notAnOrigin}`,
  ],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://shop.example#x'] },
    `body.embedOrigins[0] ${notAnOrigin}`,
  ],
  ['ProgramPatchRequest', { embedOrigins: ['http://shop.example'] }, `body.embedOrigins[0] ${notAnOrigin}`],
  ['ProgramPatchRequest', { embedOrigins: ['ftp://shop.example'] }, `body.embedOrigins[0] ${notAnOrigin}`],
  ['ProgramPatchRequest', { embedOrigins: ['shop.example'] }, `body.embedOrigins[0] ${notAnOrigin}`],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://u@shop.example'] },
    `body.embedOrigins[0] ${notAnOrigin}`,
  ],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://shop.example:0'] },
    `body.embedOrigins[0] ${notAnOrigin}`,
  ],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://shop.example:65536'] },
    `body.embedOrigins[0] ${notAnOrigin}`,
  ],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://bücher.example'] },
    `body.embedOrigins[0] ${notAnOrigin}`,
  ],
  ['ProgramPatchRequest', { embedOrigins: [''] }, `body.embedOrigins[0] ${notAnOrigin}`],
  [
    'ProgramPatchRequest',
    { embedOrigins: [`https://${'a'.repeat(240)}.example`] },
    'body.embedOrigins[0] must NOT have more than 255 characters',
  ],
  [
    'ProgramPatchRequest',
    { embedOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example`) },
    'body.embedOrigins must NOT have more than 20 items',
  ],
  [
    'ProgramPatchRequest',
    { embedOrigins: ['https://a.example', 'https://a.example'] },
    'body.embedOrigins must NOT have duplicate items (items ## 1 and 0 are identical)',
  ],
];

describe('the body checks of program settings and reward codes', () => {
  it.each(cases)('%s: answers %j as the OpenAPI validator did', (name, body, answer) => {
    expect(zodSays(schemas[name]!, body)).toBe(answer);
    expect(ajvSaidBefore(name, body)).toBe(answer);
  });
});

describe('the translatable errorIds of a theme', () => {
  // The validator's list as it stood; the email loop (issue 22) added four errorIds a theme may translate.
  const before =
    'body.theme.intl.errorId key "noSuchError" must be one of invalidBirthDate, invalidEmail, invalidRequest, noProgram, tooManyOrganizationMatches, tooManyAddSchoolRequests, verificationLimitExceeded, noVerification, expiredVerification, expiredProgram, inactiveProgram, noRemainingRewardCodes, noOrganization, invalidOrganization, invalidFirstName, invalidLastName, invalidPhoneNumber, invalidPostalCode, invalidState, invalidAddress1, invalidCity, invalidMilitaryStatus, invalidSocialSecurityNumber, underagePerson, outsideAgePerson, futureBirthDate, invalidDischargeDate, dischargeDateBeforeBirthDate, invalidStep, invalidApiToken, invalidClient, maxMetadataValuesExceeded, maxMetadataLengthExceeded, internalServerError, unsupportedDocMimeType, invalidFileSizeMax, invalidFileSizeEmpty, invalidNumberOfFiles, docReviewLimitExceeded, simulatedError, verificationLimitAlreadyExists, webhookAlreadyExists';
  const added = [
    'invalidEmailLoopToken',
    'expiredEmailLoopToken',
    'emailLoopResendTooSoon',
    'maxEmailLoopResendsExceeded',
  ];
  const unknownKey = { theme: { intl: { errorId: { noSuchError: 'x' } } } };

  it("names every errorId, the email loop's added after the ones the OpenAPI validator named", () => {
    // The validator's words name the vocabulary as it is now, as the zod check does.
    const now = `${before}, ${added.join(', ')}`;
    expect(ajvSaidBefore('ProgramPatchRequest', unknownKey)).toBe(now);
    expect(zodSays(ProgramPatchRequest, unknownKey)).toBe(now);
  });

  it('takes a translation of an email-loop errorId', () => {
    expect(
      zodSays(ProgramPatchRequest, {
        theme: { intl: { errorId: { invalidEmailLoopToken: 'Falscher Code' } } },
      }),
    ).toBeUndefined();
  });
});
