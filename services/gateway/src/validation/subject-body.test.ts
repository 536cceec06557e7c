import type { SchemaName } from '../openapi/components';
import { isDomainError } from '@eligo/runtime';
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
    };
    for (const type of subjectTypes) {
      const body = Object.fromEntries(subjectKeys[type]!.map((k) => [k, sample[k] ?? `${k}-value`]));
      const subject = subjectFromJson(type, body) as unknown as Record<string, unknown>;
      for (const key of subjectKeys[type]!) {
        const expected = key === 'organization' ? { id: 7, name: '' } : (sample[key] ?? `${key}-value`);
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
    expect(refusal(() => subjectFromJson('DriverLicense', { metadata: {} }))).toBe(
      "Unexpected property 'metadata'. Allowed keys: firstName, lastName, state, driverLicenseNumber, email",
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
    ['an empty organization', 'Student', { organization: {} }, 'body.organization must have an id or a name'],
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
