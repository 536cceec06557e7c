import { SEGMENTS, segmentNames } from '@eligo/vocabulary';
import { COUNTRY_CODES } from '../openapi/schemas/countries';
import { ajvSaidBefore, zodSays } from '../../test/check-answers';
import { documentBefore, expectSchemasAsBefore, plain } from '../../test/document-before';
import { checkBody } from './body-check';
import { ProgramCreateRequest } from './admin-programs-create';
import { ProgramPatchRequest } from './admin-programs-input';
import { ORIGIN_PATTERN } from './program-input-rules';
import { adminProgramEndpoints, type ProgramCreateBody, type ProgramPatchBody } from './admin-programs';
import { endpointDocument } from './openapi';

// The OpenAPI validator (Ajv) as it checked the hand-written schemas, over the document captured before the
// endpoints became definitions: the zod checks must accept and refuse the same bodies, in the same words.

describe('the admin program endpoint definitions', () => {
  it('state the schemas the hand-written document stated, names included', () => {
    const { schemas: stated } = endpointDocument(adminProgramEndpoints, 'https://eligo.test');
    expectSchemasAsBefore(stated, [
      'ProgramCreateRequest',
      'ProgramPatchRequest',
      'RewardCodesRequest',
      'OrganizationRulesInput',
      'ThemeInput',
      'WebhookInput',
      'VerificationLimitInput',
    ]);
  });

  // Changed on purpose since the capture (test/document-before.ts): the embedOrigins and instantMatch settings.
  it('state embedOrigins and instantMatch, the settings added since, and the rest of the program bodies as before', () => {
    const { schemas: stated } = endpointDocument(adminProgramEndpoints, 'https://eligo.test');
    for (const name of ['ProgramCreateRequest', 'ProgramPatchRequest']) {
      const now = plain(stated[name]) as { properties: Record<string, unknown> };
      const { embedOrigins, instantMatch, ...others } = now.properties;
      expect([name, instantMatch]).toEqual([
        name,
        expect.objectContaining({
          type: ['object', 'null'],
          required: ['sources'],
          additionalProperties: false,
        }),
      ]);
      expect([name, { ...now, properties: others }]).toEqual([name, documentBefore.components.schemas[name]]);
      expect([name, embedOrigins]).toEqual([
        name,
        {
          type: ['array', 'null'],
          maxItems: 20,
          uniqueItems: true,
          items: { type: 'string', maxLength: 255, pattern: ORIGIN_PATTERN },
          description: expect.stringContaining('https://*.example.com is refused in this version'),
        },
      ]);
      // Last of the settings, so that the list of allowed properties only grew at its end.
      expect(Object.keys(now.properties).slice(-2)).toEqual(['embedOrigins', 'instantMatch']);
    }
  });
});

const accountId = 'ab'.repeat(12);
const program = { accountId, name: 'Spring', segment: 'student' };
const emoji = (n: number) => '\u{1F600}'.repeat(n);

/** [schema, body, what the OpenAPI validator answered (undefined: accepted)]. */
const cases: [string, unknown, string | undefined][] = [
  // Accepted.
  ['ProgramCreateRequest', program, undefined],
  [
    'ProgramCreateRequest',
    {
      ...program,
      segment: 'age',
      name: '  Spring  ',
      mode: 'live',
      minAge: 18,
      maxAge: null,
      countries: ['us', 'DE'],
      offerType: 'staticCode',
      rewardCode: emoji(128),
      consolationRewardCode: null,
      redirectUrl: 'https://shop.example.com:8443/thanks?x=1#top',
      startDate: '2030-01-01',
      endDate: '2030-06-01T12:00:00.5+02:00',
      maxRejections: 0,
      maxReviewTime: '2_MIN',
      estimatedReviewTime: null,
      organizationRules: { types: ['K12'], includeIds: [Number.MAX_SAFE_INTEGER], excludeIds: [] },
      theme: {
        intl: { locale: 'en-US', messages: { 'form.title': 'Hi\n' }, errorId: { invalidEmail: 'x' } },
      },
      webhook: { callbackUri: 'http://[2001:db8::1]:8080/hook?a=b', notifierEventTypes: ['EXPIRATION'] },
      verificationLimit: { quantity: 1000, days: 3650 },
      subjectTokenKey: '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----',
      requireAccountTokenToCreate: null,
      embedOrigins: ['https://Shop.Example:443', 'http://localhost:3000', 'https://[2001:db8::1]:8443'],
    },
    undefined,
  ],
  [
    'ProgramCreateRequest',
    { ...program, segment: 'military', subSegments: ['veteran', 'activeDuty'] },
    undefined,
  ],
  // Not an object, missing, unexpected.
  ['ProgramCreateRequest', [1, 2], 'body must be object'],
  ['ProgramCreateRequest', null, 'body must be object'],
  ['ProgramCreateRequest', {}, 'body.accountId is required'],
  ['ProgramCreateRequest', { name: 'P', segment: 'student' }, 'body.accountId is required'],
  ['ProgramCreateRequest', { accountId, segment: 'student' }, 'body.name is required'],
  ['ProgramCreateRequest', { accountId, name: 'P' }, 'body.segment is required'],
  [
    'ProgramCreateRequest',
    { ...program, pricing: 1 },
    'body has unexpected property pricing (allowed: accountId, name, segment, subSegments, mode, startDate, endDate, offerType, rewardCode, redirectUrl, consolationRewardCode, minAge, maxAge, countries, maxRejections, maxReviewTime, estimatedReviewTime, organizationRules, theme, webhook, verificationLimit, subjectTokenKey, requireAccountTokenToCreate, embedOrigins, instantMatch)',
  ],
  // Wrong types, null where it is not allowed.
  ['ProgramCreateRequest', { ...program, segment: 7 }, 'body.segment must be string'],
  ['ProgramCreateRequest', { ...program, accountId: 5 }, 'body.accountId must be string'],
  // Patterns, formats, control characters.
  [
    'ProgramCreateRequest',
    { ...program, accountId: 'AB'.repeat(12) },
    'body.accountId must match pattern "^[0-9a-f]{24}$"',
  ],
  [
    'ProgramCreateRequest',
    { ...program, name: 'Spring\u0000' },
    'body.name must be 1 to 200 characters once trimmed, without control characters',
  ],
  // Wrong enum values, duplicates.
  [
    'ProgramCreateRequest',
    { ...program, segment: 'pirate' },
    'body.segment must be one of student, military, teacher, senior, age, firstResponder, medicalProfessional, licensedProfessional, mover, driverLicense, generalIdentity, employee, member, lowIncome',
  ],
  // The rules of a new program, checked before the rest of the body.
  [
    'ProgramCreateRequest',
    { ...program, segment: 'military', subSegments: ['nurse'] },
    'body.subSegments[0] must be one of activeDuty, veteran, reservist, militaryRetiree, militaryFamily, goldStarFamily (the sub-segments of military)',
  ],
  [
    'ProgramCreateRequest',
    { ...program, segment: 'military', subSegments: 'nurse' },
    'body.subSegments must be array or null',
  ],
  [
    'ProgramCreateRequest',
    { ...program, subSegments: ['veteran'] },
    'body.subSegments must NOT have more than 0 items (student programs take no sub-segments)',
  ],
  [
    'ProgramCreateRequest',
    { ...program, subSegments: 'veteran' },
    'body.subSegments must be array or null (student programs take no sub-segments)',
  ],
  ['ProgramCreateRequest', { ...program, subSegments: [] }, undefined],
  [
    'ProgramCreateRequest',
    { ...program, minAge: 18 },
    'body.minAge must be null (only age and senior programs take an age range)',
  ],
  [
    'ProgramCreateRequest',
    { accountId, name: 'P', maxAge: 'x' },
    'body.maxAge must be null (only age and senior programs take an age range)',
  ],
  ['ProgramCreateRequest', { ...program, segment: 'senior', minAge: 65, maxAge: 150 }, undefined],
  [
    'ProgramCreateRequest',
    { ...program, rewardCode: 'SPRING' },
    'body.rewardCode must be null (only a staticCode offer takes a rewardCode)',
  ],
  [
    'ProgramCreateRequest',
    { ...program, offerType: 'staticCode' },
    'body.rewardCode is required (a staticCode offer needs its rewardCode)',
  ],
  [
    'ProgramCreateRequest',
    { ...program, offerType: 'staticCode', rewardCode: null },
    'body.rewardCode must be string (a staticCode offer needs its rewardCode)',
  ],
  [
    'ProgramCreateRequest',
    { ...program, offerType: 'staticCode', rewardCode: 5 },
    'body.rewardCode must be string (a staticCode offer needs its rewardCode)',
  ],
  [
    'ProgramCreateRequest',
    { ...program, offerType: 'staticCode', rewardCode: 'A B' },
    'body.rewardCode must be 1 to 128 characters without whitespace or control characters',
  ],
  [
    'ProgramCreateRequest',
    { segment: 'student', minAge: 1, pricing: 1 },
    'body.minAge must be null (only age and senior programs take an age range)',
  ],
  [
    'ProgramCreateRequest',
    { ...program, rewardCode: 'X', minAge: 1, subSegments: ['emt'] },
    'body.subSegments must NOT have more than 0 items (student programs take no sub-segments)',
  ],
];

// The other bodies' cases are in admin-programs-settings.test.ts.
describe('the body check of a new program', () => {
  it.each(cases)('%s: answers %j as the OpenAPI validator did', (name, body, answer) => {
    expect(zodSays(ProgramCreateRequest, body)).toBe(answer);
    expect(ajvSaidBefore(name, body)).toBe(answer);
  });
});

describe('the vocabularies of the program checks are the services’ lists', () => {
  it('a new program takes the sub-segments of its own segment only', () => {
    for (const segment of segmentNames)
      for (const sub of Object.values(SEGMENTS).flat()) {
        const own = (SEGMENTS[segment] as readonly string[]).includes(sub);
        const checked = checkBody(ProgramCreateRequest, { ...program, segment, subSegments: [sub] });
        expect([segment, sub, checked.ok]).toEqual([segment, sub, own]);
      }
  });

  it('countries are those of countries-list, in any case (us and US are two spellings, not a repeat)', () => {
    for (const code of COUNTRY_CODES)
      expect([code, zodSays(ProgramPatchRequest, { countries: [code, code.toLowerCase()] })]).toEqual([
        code,
        undefined,
      ]);
    expect(zodSays(ProgramPatchRequest, { countries: ['UK'] })).toBe(
      'body.countries[0] must be an ISO 3166-1 alpha-2 country code',
    );
  });
});

describe('the checked bodies', () => {
  it('are the values sent, typed as the mapping reads them', () => {
    const sent = { ...program, minAge: null, theme: { intl: { messages: { 'form.title': 'Hi' } } } };
    const created = checkBody(ProgramCreateRequest, sent);
    const body: ProgramCreateBody | undefined = created.ok ? created.value : undefined;
    expect(body).toEqual(sent);
    const patched = checkBody(ProgramPatchRequest, { webhook: null, subSegments: ['veteran'] });
    const patch: ProgramPatchBody | undefined = patched.ok ? patched.value : undefined;
    expect(patch).toEqual({ webhook: null, subSegments: ['veteran'] });
  });
});
