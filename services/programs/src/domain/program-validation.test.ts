import { expectRejectedInvalid } from '../../test/domain-errors';
import { ecP256 } from '../../test/keys';
import { review, rules, settings, theme } from '../../test/program-settings';
import { validateProgramSettings, type SettingsInput } from './program-validation';

const tokenKey = ecP256();

describe('validateProgramSettings', () => {
  // Every rule: a value it accepts...
  it.each<[string, Partial<SettingsInput>]>([
    ['a 200-character name', { name: 'n'.repeat(200) }],
    ['military sub-segments', { segment: 'military', subSegments: ['activeDuty', 'goldStarFamily'] }],
    [
      'licensed professional sub-segments',
      { segment: 'licensedProfessional', subSegments: ['licensedCosmetologist', 'nutritionProfessional'] },
    ],
    ['a live mode', { mode: 'LIVE' }],
    ['a start before the end', { startDate: new Date('2030-01-01'), endDate: new Date('2030-01-02') }],
    ['only a start', { startDate: new Date('2030-01-01') }],
    ['a static code', { offerType: 'STATIC_CODE', rewardCode: 'SAVE-10' }],
    ['a 128-character code', { offerType: 'STATIC_CODE', rewardCode: 'c'.repeat(128) }],
    ['a reward pool', { offerType: 'REWARD_POOL' }],
    ['a consolation code', { consolationRewardCode: 'THANKS' }],
    ['an https redirect', { redirectUrl: 'https://shop.example.com/x?y=1#z' }],
    ['age bounds on an age program', { segment: 'age', minAge: 0, maxAge: 150 }],
    ['equal age bounds on a senior program', { segment: 'senior', minAge: 65, maxAge: 65 }],
    ['countries', { countries: ['US', 'de'] }],
    [
      'document review',
      {
        documentReview: review({
          maxRejections: 0,
          maxReviewTime: '3_DAY',
          estimatedReviewTime: 'A_FEW_DAYS',
        }),
      },
    ],
    ['ten rejections', { documentReview: review({ maxRejections: 10 }) }],
    [
      'organization rules',
      {
        organizationRules: rules({
          types: ['UNIVERSITY', 'K12'],
          countries: ['us'],
          includeIds: [1, 5],
          excludeIds: [2],
        }),
      },
    ],
    [
      '1000 included ids',
      { organizationRules: rules({ includeIds: Array.from({ length: 1000 }, (_, i) => i + 1) }) },
    ],
    [
      'a theme',
      {
        theme: theme({
          locale: 'en-GB',
          messages: { 'a.b-c_1': 'x'.repeat(2000) },
          errorId: { noProgram: 'y' },
          customCss: 'a { color: red }',
        }),
      },
    ],
    ['a verification limit', { verificationLimit: { quantity: 1000, days: 3650 } }],
    ['a subject token key as a JWK', { subjectTokenKey: tokenKey.publicJwk }],
    ['a subject token key as PEM', { subjectTokenKey: tokenKey.publicPem }],
  ])('accepts %s', async (_case, overrides) => {
    await expect(validateProgramSettings(settings(overrides))).resolves.toBeDefined();
  });

  // ...and a value it refuses, with the message naming the field.
  it.each<[string, Partial<SettingsInput>, string]>([
    ['an empty name', { name: '  ' }, 'name: is required'],
    ['a 201-character name', { name: 'n'.repeat(201) }, 'name: must be at most 200 characters'],
    ['an unknown segment', { segment: 'pilot' }, 'segment: "pilot" is not a segment'],
    [
      'a foreign sub-segment',
      { subSegments: ['veteran'] },
      'subSegments: veteran is not a sub-segment of student',
    ],
    [
      'a repeated sub-segment',
      { segment: 'mover', subSegments: ['homeBuyer', 'homeBuyer'] },
      'subSegments: homeBuyer is listed twice',
    ],
    [
      'an end equal to the start',
      { startDate: new Date('2030-01-01'), endDate: new Date('2030-01-01') },
      'endDate: must be after startDate',
    ],
    ['a date out of range', { startDate: new Date('+010000-01-01T00:00:00Z') }, 'startDate: is out of range'],
    [
      'a static offer without code',
      { offerType: 'STATIC_CODE' },
      'rewardCode: is required for a static-code offer',
    ],
    [
      'a code on a pool offer',
      { offerType: 'REWARD_POOL', rewardCode: 'X' },
      'rewardCode: is allowed only for a static-code offer',
    ],
    [
      'a code with a space',
      { offerType: 'STATIC_CODE', rewardCode: 'A B' },
      'rewardCode: must not contain whitespace or control characters',
    ],
    ['an empty code', { offerType: 'STATIC_CODE', rewardCode: '' }, 'rewardCode: must not be empty'],
    [
      'a 129-character code',
      { offerType: 'STATIC_CODE', rewardCode: 'c'.repeat(129) },
      'rewardCode: must be at most 128 characters',
    ],
    [
      'a consolation code with a tab',
      { consolationRewardCode: 'A\tB' },
      'consolationRewardCode: must not contain whitespace or control characters',
    ],
    [
      'a javascript: redirect',
      { redirectUrl: 'javascript:alert(1)' },
      'redirectUrl: must be an absolute http or https URL',
    ],
    [
      'a redirect with credentials',
      { redirectUrl: 'https://a:b@x.com' },
      'redirectUrl: must not contain a user name or password',
    ],
    ['age bounds on a student program', { maxAge: 30 }, 'maxAge: applies only to age and senior programs'],
    ['a negative age', { segment: 'age', minAge: -1 }, 'minAge: must be a whole number from 0 to 150'],
    ['an age over 150', { segment: 'age', maxAge: 151 }, 'maxAge: must be a whole number from 0 to 150'],
    ['min above max', { segment: 'senior', minAge: 70, maxAge: 60 }, 'maxAge: must not be below minAge'],
    [
      'an unknown country',
      { countries: ['XX'] },
      'countries: "XX" is not an ISO 3166-1 alpha-2 country code',
    ],
    ['a repeated country', { countries: ['fr', 'FR'] }, 'countries: FR is listed twice'],
    [
      '11 rejections',
      { documentReview: review({ maxRejections: 11 }) },
      'documentReview.maxRejections: must be from 0 to 10',
    ],
    [
      'an unknown max review time',
      { documentReview: review({ maxReviewTime: '1_WEEK' }) },
      'documentReview.maxReviewTime: must be one of 2_MIN 20_MIN 2_HRS 24_HRS 2_DAY 3_DAY or empty',
    ],
    [
      'an unknown estimate',
      { documentReview: review({ estimatedReviewTime: 'SOON' }) },
      'documentReview.estimatedReviewTime: must be one of A_FEW_MINUTES A_HALF_HOUR A_FEW_HOURS A_FEW_DAYS or empty',
    ],
    [
      'an unknown organization type',
      { organizationRules: rules({ types: ['SCHOOL'] }) },
      'organizationRules.types: "SCHOOL" is not an organization type',
    ],
    [
      'a repeated organization type',
      { organizationRules: rules({ types: ['K12', 'K12'] }) },
      'organizationRules.types: K12 is listed twice',
    ],
    [
      'an organization country',
      { organizationRules: rules({ countries: ['EU'] }) },
      'organizationRules.countries: "EU" is not an ISO 3166-1 alpha-2 country code',
    ],
    [
      'a zero organization id',
      { organizationRules: rules({ includeIds: [0] }) },
      'organizationRules.includeIds: 0 is not a positive integer',
    ],
    [
      'a negative excluded id',
      { organizationRules: rules({ excludeIds: [-4] }) },
      'organizationRules.excludeIds: -4 is not a positive integer',
    ],
    [
      '1001 excluded ids',
      { organizationRules: rules({ excludeIds: Array.from({ length: 1001 }, (_, i) => i + 1) }) },
      'organizationRules.excludeIds: at most 1000 ids',
    ],
    [
      'an id both included and excluded',
      { organizationRules: rules({ includeIds: [7], excludeIds: [7] }) },
      'organizationRules: organization 7 is both included and excluded',
    ],
    [
      'a bad locale',
      { theme: theme({ locale: 'english please' }) },
      'theme.intl.locale: "english please" is not a BCP 47 language tag',
    ],
    [
      'a bad message key',
      { theme: theme({ messages: { 'x y': 'v' } }) },
      'theme.intl.messages: key "x y" must match ^[A-Za-z0-9_.-]{1,100}$',
    ],
    [
      'a long message',
      { theme: theme({ messages: { k: 'v'.repeat(2001) } }) },
      'theme.intl.messages.k: must be at most 2000 characters',
    ],
    [
      '501 messages',
      {
        theme: theme({ messages: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, 'v'])) }),
      },
      'theme.intl.messages: at most 500 entries',
    ],
    [
      'an unknown errorId',
      { theme: theme({ errorId: { oops: 'v' } }) },
      'theme.intl.errorId: "oops" is not a known errorId',
    ],
    [
      'a long errorId text',
      { theme: theme({ errorId: { noProgram: 'v'.repeat(2001) } }) },
      'theme.intl.errorId.noProgram: must be at most 2000 characters',
    ],
    [
      'CSS with "<"',
      { theme: theme({ customCss: 'a{}</style>' }) },
      'theme.customCss: must not contain "<" (write \\3c in strings)',
    ],
    [
      'CSS over 64 KiB',
      { theme: theme({ customCss: 'a'.repeat(65_537) }) },
      'theme.customCss: must be at most 65536 bytes',
    ],
    [
      'a zero limit',
      { verificationLimit: { quantity: 0, days: 1 } },
      'verificationLimit.quantity: must be from 1 to 1000',
    ],
    [
      'a limit over 3650 days',
      { verificationLimit: { quantity: 1, days: 3651 } },
      'verificationLimit.days: must be from 1 to 3650',
    ],
    [
      'a private subject token key',
      { subjectTokenKey: tokenKey.privateJwk },
      'subjectTokenKey: must be a public key; this JWK has the private or secret member "d"',
    ],
    [
      'a subject token key that is no key',
      { subjectTokenKey: 'secret' },
      'subjectTokenKey: must be a JWK (JSON with "kty") or a PEM public key (-----BEGIN PUBLIC KEY-----)',
    ],
  ])('refuses %s', async (_case, overrides, message) => {
    await expectRejectedInvalid(validateProgramSettings(settings(overrides)), message);
  });
});
