import type { SchemaName } from '../openapi/components';
import { isDomainError } from '@eligo/runtime';
import { metadataProblems } from '@eligo/vocabulary';
import { createRequestValidator } from './request-validator';
import {
  compactJws,
  marketplaceTokenFromJson,
  marketplaceTokenOf,
  personalInfoStep,
  subjectFromJson,
} from './subject-body';
import { subjectKeys, subjectTypes } from './subject-keys';

/** The invalidRequest message `fn` throws, or undefined when it does not throw. */
const refusal = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    if (isDomainError(err) && err.errorIds.includes('invalidRequest') && err.kind === 'invalidArgument')
      return err.message;
    throw err;
  }
  return undefined;
};

const jws = 'eyJhbGciOiJFUzI1NiJ9.eyJmaXJzdE5hbWUiOiJKYW5lIn0.c2lnbmF0dXJl';

describe('personal-info step names', () => {
  it('knows collect<Type>PersonalInfo on both path shapes, for every type of the subjects table', () => {
    for (const type of subjectTypes) {
      for (const shape of ['verification', 'program'] as const)
        expect(personalInfoStep(`collect${type}PersonalInfo`, shape)).toEqual({
          kind: 'subject',
          step: `collect${type}PersonalInfo`,
          type,
        });
    }
  });

  it('knows the generic and marketplace steps on the verificationId shape only', () => {
    expect(personalInfoStep('collectPersonalInfo', 'verification')).toEqual({
      kind: 'subject',
      step: 'collectPersonalInfo',
      type: 'Student',
    });
    expect(personalInfoStep('collectMarketplaceToken', 'verification')).toEqual({
      kind: 'marketplace',
      step: 'collectMarketplaceToken',
    });
    expect(personalInfoStep('collectPersonalInfo', 'program')).toBeUndefined();
    expect(personalInfoStep('collectMarketplaceToken', 'program')).toBeUndefined();
  });

  it.each([
    'docUpload',
    'collectPilotPersonalInfo',
    'collectstudentPersonalInfo',
    'collectStudentPersonalInfox',
    'collectMilitaryStatus',
    'collecttoStringPersonalInfo',
    'collectconstructorPersonalInfo',
  ])('leaves %s to other routes', (step) => {
    expect(personalInfoStep(step, 'verification')).toBeUndefined();
  });
});

describe('subject JSON -> proto Subject', () => {
  it('converts a full student body, leaving what is missing empty', () => {
    const subject = subjectFromJson('Student', {
      firstName: 'Jane',
      lastName: 'Doe',
      birthDate: '2000-01-31',
      email: 'jane@example.com',
      organization: { id: 42, name: 'Stanford University' },
      metadata: { plan: 'pro' },
    });
    expect(subject).toMatchObject({
      firstName: 'Jane',
      lastName: 'Doe',
      birthDate: '2000-01-31',
      email: 'jane@example.com',
      organization: { id: 42, name: 'Stanford University' },
      metadata: { plan: 'pro' },
      postalCode: '',
      statuses: [],
      universityId: 0,
    });
  });

  it('takes every key of every type, with null as not given', () => {
    const sample: Record<string, unknown> = {
      organization: { id: 7 },
      metadata: { a: 'b' },
      statuses: ['HOME_BUYER'],
      universityId: 9,
      locale: 'fr-CA',
      externalUserId: 'user-42',
      deviceFingerprintHash: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
    };
    for (const type of subjectTypes) {
      const body = Object.fromEntries(subjectKeys[type]!.map((k) => [k, sample[k] ?? `${k}-value`]));
      const subject = subjectFromJson(type, body) as unknown as Record<string, unknown>;
      for (const key of subjectKeys[type]!) {
        // The device fingerprint is checked, then dropped: nothing uses it.
        const expected =
          key === 'organization'
            ? { id: 7, name: '' }
            : key === 'deviceFingerprintHash'
              ? undefined
              : (sample[key] ?? `${key}-value`);
        expect([type, key, subject[key]]).toEqual([type, key, expected]);
      }
      const nulls = Object.fromEntries(subjectKeys[type]!.map((k) => [k, null]));
      expect(subjectFromJson(type, nulls)).toMatchObject({ firstName: '', organization: undefined });
    }
  });

  it('takes a universityId from a student, and an organization by name alone', () => {
    expect(subjectFromJson('Student', { universityId: 123 }).universityId).toBe(123);
    expect(subjectFromJson('Employee', { organization: { name: 'Acme' } }).organization).toEqual({
      id: 0,
      name: 'Acme',
    });
  });

  it('refuses an unexpected property, naming the allowed keys of the type', () => {
    expect(refusal(() => subjectFromJson('Student', { firstName: 'Jane', phoneNumber: '1' }))).toBe(
      "Unexpected property 'phoneNumber'. Allowed keys: firstName, lastName, birthDate, email, " +
        'organization, universityId, metadata',
    );
    expect(refusal(() => subjectFromJson('DriverLicense', { fingerprint: 'x' }))).toBe(
      "Unexpected property 'fingerprint'. Allowed keys: firstName, lastName, state, driverLicenseNumber, " +
        'email, metadata, phoneNumber, locale, deviceFingerprintHash, externalUserId',
    );
    // The student body keeps exactly the spec's keys: none of the optional fields other types take.
    for (const key of ['locale', 'externalUserId', 'deviceFingerprintHash', 'phoneNumber'])
      expect(refusal(() => subjectFromJson('Student', { [key]: 'x' }))).toMatch(
        new RegExp(
          `^Unexpected property '${key}'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata$`,
        ),
      );
    // Object.prototype names are not keys of any type.
    expect(refusal(() => subjectFromJson('Student', JSON.parse('{"__proto__": {}}')))).toMatch(
      /^Unexpected property '__proto__'/,
    );
  });

  it.each<[string, string, unknown, string]>([
    ['a number as a name', 'Student', { firstName: 7 }, 'body.firstName must be a string'],
    ['a boolean as an email', 'Student', { email: true }, 'body.email must be a string'],
    [
      'an organization that is a string',
      'Student',
      { organization: 'Stanford' },
      'body.organization must be an object {id (integer), name (string)}',
    ],
    [
      'an organization id that is a string',
      'Teacher',
      { organization: { id: '42' } },
      'body.organization.id must be a positive integer',
    ],
    [
      'an organization id with a fraction',
      'Teacher',
      { organization: { id: 4.2 } },
      'body.organization.id must be a positive integer',
    ],
    [
      'an organization name that is a number',
      'Member',
      { organization: { id: 1, name: 2 } },
      'body.organization.name must be a string',
    ],
    [
      'an organization with another key',
      'Student',
      { organization: { id: 1, country: 'US' } },
      "Unexpected property 'organization.country'. Allowed keys: id, name",
    ],
    [
      'an empty organization',
      'Student',
      { organization: {} },
      'body.organization must have an id or a non-empty name',
    ],
    [
      'an organization with a null name only',
      'Student',
      { organization: { name: null } },
      'body.organization must have an id or a non-empty name',
    ],
    [
      'an organization with an empty name only',
      'Teacher',
      { organization: { id: null, name: '' } },
      'body.organization must have an id or a non-empty name',
    ],
    [
      'an organization id beyond 2^53 - 1',
      'Teacher',
      { organization: { id: 2 ** 53 } },
      'body.organization.id must be a positive integer',
    ],
    [
      'a universityId beyond 2^53 - 1',
      'Student',
      { universityId: 2 ** 53 },
      'body.universityId must be a positive integer',
    ],
    [
      'the reserved metadata key __proto__',
      'Student',
      JSON.parse('{"metadata": {"__proto__": "x"}}'),
      'body.metadata["__proto__"] is a reserved key',
    ],
    [
      'a locale that is no BCP 47 tag',
      'Teacher',
      { locale: 'en_US' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'a locale that is a number',
      'Teacher',
      { locale: 7 },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'an empty externalUserId',
      'Member',
      { externalUserId: '' },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'an externalUserId with a control character',
      'Member',
      { externalUserId: 'a\u0000' },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'an externalUserId over 256 characters',
      'Age',
      { externalUserId: 'x'.repeat(257) },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'a deviceFingerprintHash with other characters',
      'Age',
      { deviceFingerprintHash: 'abc def' },
      'body.deviceFingerprintHash must be 1 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -',
    ],
    [
      'a deviceFingerprintHash over 128 characters',
      'Senior',
      { deviceFingerprintHash: 'a'.repeat(129) },
      'body.deviceFingerprintHash must be 1 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -',
    ],
    ['nested metadata', 'Student', { metadata: { a: { b: 'c' } } }, 'body.metadata["a"] must be a string'],
    [
      'metadata as an array',
      'Student',
      { metadata: ['a'] },
      'body.metadata must be an object of string values',
    ],
    [
      'statuses as a string',
      'Mover',
      { statuses: 'HOME_BUYER' },
      'body.statuses must be an array of strings',
    ],
    [
      'a number among statuses',
      'LowIncome',
      { statuses: ['SNAP_BENEFITS', 1] },
      'body.statuses must be an array of strings',
    ],
    [
      'a universityId as a string',
      'Student',
      { universityId: '12' },
      'body.universityId must be a positive integer',
    ],
    ['an array body', 'Student', [{ firstName: 'Jane' }], 'body must be a JSON object'],
    ['a string body', 'Student', 'Jane', 'body must be a JSON object'],
  ])('refuses %s', (_name, type, body, message) => {
    expect(refusal(() => subjectFromJson(type, body))).toBe(message);
  });

  it('agrees with the published subject schemas on what is valid', () => {
    const validator = createRequestValidator();
    const bodies: [string, unknown][] = [
      ['Student', { firstName: 'Jane', organization: { id: 1, name: 'X' }, metadata: { a: 'b' } }],
      ['Student', { firstName: 7 }],
      ['Student', { organization: { id: '1' } }],
      ['Student', { organization: { id: 1, country: 'US' } }],
      ['Student', { metadata: { a: 1 } }],
      ['Student', { phoneNumber: '1' }],
      ['Mover', { statuses: ['HOME_BUYER'] }],
      ['Mover', { statuses: [1] }],
      ['Age', { country: 'US', phoneNumber: '+14155550100' }],
      ['DriverLicense', { driverLicenseNumber: 'D123', state: 'CA', email: null }],
      ['Student', { organization: { id: 1 } }],
      ['Student', { organization: { name: 'Stanford' } }],
      ['Student', { organization: { id: null, name: 'Stanford' } }],
      ['Student', { organization: { id: 1, name: null } }],
      ['Student', { organization: { id: 1, name: '' } }],
      ['Student', { organization: {} }],
      ['Student', { organization: { name: null } }],
      ['Student', { organization: { name: '' } }],
      ['Student', { organization: { id: null, name: null } }],
      ['Student', { organization: null }],
      ['Student', { organization: { id: Number.MAX_SAFE_INTEGER } }],
      ['Student', { organization: { id: 2 ** 53 } }],
      ['Student', { universityId: Number.MAX_SAFE_INTEGER }],
      ['Student', { universityId: 2 ** 53 }],
      ['Student', { locale: 'en-US' }],
      ['Student', JSON.parse('{"metadata": {"__proto__": "x"}}')],
      [
        'Teacher',
        { locale: 'en-US', externalUserId: 'u-1', deviceFingerprintHash: 'abc=', phoneNumber: '+1' },
      ],
      ['Teacher', { locale: null, externalUserId: null, deviceFingerprintHash: null }],
      ['Teacher', { locale: 'en_US' }],
      ['Teacher', { locale: '' }],
      ['Teacher', { locale: 'english' }],
      ['Teacher', { externalUserId: '' }],
      ['Teacher', { externalUserId: 'a\nb' }],
      ['Teacher', { externalUserId: '🎓'.repeat(256) }],
      ['Teacher', { externalUserId: '🎓'.repeat(257) }],
      ['Teacher', { deviceFingerprintHash: 'a.b' }],
      ['Teacher', { deviceFingerprintHash: '' }],
      ['DriverLicense', { metadata: { a: 'b' }, phoneNumber: '+14155550100' }],
      ['GeneralIdentity', { metadata: null, locale: 'de' }],
    ];
    for (const [type, body] of bodies) {
      const schemaValid = validator.check(`${type}Subject` as SchemaName, body) === undefined;
      const converted = refusal(() => subjectFromJson(type, body)) === undefined;
      expect([type, body, converted]).toEqual([type, body, schemaValid]);
    }
  });
});

describe('compact JWS bodies and marketplace tokens', () => {
  it('takes three base64url segments, trimmed', () => {
    expect(compactJws(`${jws}\n`, 'body')).toBe(jws);
    expect(marketplaceTokenFromJson({ marketplaceToken: jws })).toBe(jws);
  });

  it('takes the marketplace token as verificationToken too, the name clients send', () => {
    expect(marketplaceTokenFromJson({ verificationToken: ` ${jws}` })).toBe(jws);
    expect(marketplaceTokenFromJson({ verificationToken: jws, marketplaceToken: null })).toBe(jws);
    expect(marketplaceTokenOf({ programId: 'x', verificationToken: jws })).toBe(jws);
  });

  it.each([
    ['two segments', 'aaa.bbb'],
    ['four segments', `${jws}.ddd`],
    ['an empty payload', 'aaa..ccc'],
    ['padding', 'aaa=.bbb.ccc'],
    ['JSON', '{"firstName":"Jane"}'],
    ['more than 16 KiB', `aaa.${'b'.repeat(16 * 1024)}.ccc`],
  ])('refuses %s', (_name, token) => {
    expect(refusal(() => compactJws(token, 'body'))).toBe(
      'body must be a compact JWS (header.payload.signature, at most 16 KiB)',
    );
  });

  it('refuses other marketplace bodies', () => {
    const exactlyOne = 'body must have exactly one of marketplaceToken, verificationToken';
    expect(refusal(() => marketplaceTokenFromJson({}))).toBe(exactlyOne);
    expect(refusal(() => marketplaceTokenFromJson({ marketplaceToken: jws, verificationToken: jws }))).toBe(
      exactlyOne,
    );
    expect(refusal(() => marketplaceTokenFromJson({ marketplaceToken: jws, firstName: 'x' }))).toBe(
      "Unexpected property 'firstName'. Allowed keys: marketplaceToken, verificationToken",
    );
    expect(refusal(() => marketplaceTokenFromJson({ marketplaceToken: 42 }))).toBe(
      'body.marketplaceToken must be a compact JWS (header.payload.signature, at most 16 KiB)',
    );
    expect(refusal(() => marketplaceTokenFromJson({ verificationToken: 'x.y' }))).toBe(
      'body.verificationToken must be a compact JWS (header.payload.signature, at most 16 KiB)',
    );
    expect(refusal(() => marketplaceTokenFromJson([jws]))).toBe('body must be a JSON object');
  });
});

describe('the metadata schemas state the service’s rules', () => {
  const validator = createRequestValidator();
  const map = (count: number) => Object.fromEntries([...Array(count).keys()].map((i) => [`k${i}`, 'v']));
  const samples: [string, Record<string, string>][] = [
    ['an empty map', {}],
    ['50 keys', map(50)],
    ['51 keys', map(51)],
    ['a 64-character key', { ['k'.repeat(64)]: 'v' }],
    ['a 65-character key', { ['k'.repeat(65)]: 'v' }],
    ['a key of 64 characters outside the BMP', { ['𠮷'.repeat(64)]: 'v' }],
    ['an empty key', { '': 'v' }],
    ['a 1024-character value', { k: 'v'.repeat(1024) }],
    ['a 1025-character value', { k: 'v'.repeat(1025) }],
    ['1024 characters outside the BMP', { k: '𠮷'.repeat(1024) }],
    ['an empty value', { k: '' }],
    ['a NUL in a key', { 'a\u0000': 'v' }],
    ['a line break in a value', { k: 'a\nb' }],
    ['a C1 control character in a value', { k: 'a\u0085' }],
    ['a line separator in a key', { 'a\u2028': 'v' }],
    ['the reserved key __proto__', JSON.parse('{"__proto__": "x"}') as Record<string, string>],
    ['keys that only look special', { constructor: 'v', __proto__x: 'v', 'utm.source': 'mail' }],
  ];

  it.each(samples)('%s: the schema admits it exactly when the service does', (_name, metadata) => {
    const server = metadataProblems(metadata).length === 0;
    const where: [SchemaName, unknown][] = [
      ['VerificationMetadata', metadata],
      ['NewVerificationRequest', { programId: 'ab'.repeat(12), metadata }],
      ['StudentSubject' as SchemaName, { metadata }],
      ['DriverLicenseSubject' as SchemaName, { metadata }],
    ];
    for (const [schema, body] of where)
      expect([schema, validator.check(schema, body) === undefined]).toEqual([schema, server]);
  });
});
