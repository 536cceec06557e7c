import type { SubjectType } from '@eligo/vocabulary';
import { checkSubject, fullStudent, metadataOfKeys } from '../../test/subject-bodies';

/**
 * The personal-info bodies, checked by their subject schemas (endpoints/verification-subjects.ts). The
 * expected answers are those of the checks the schemas replaced (validation/subject-body.ts, which read the
 * keys and JSON types, then the published <Type>Subject and VerificationMetadataText through the OpenAPI
 * validator), captured from them before they were removed: the step error's message is unchanged.
 */
const problemOf = (type: SubjectType, body: unknown) => {
  const checked = checkSubject(type, body);
  return checked.ok ? null : checked.problem;
};

describe('a personal-info body', () => {
  // Valid bodies, then the body and its keys, JSON types, the organization, the clients' fields, the
  // metadata, the text rules, and which of several refusals comes first.
  it.each<[SubjectType, unknown, string | null]>([
    ['Student', fullStudent, null],
    ['Student', { organization: { name: 'Stanford' }, universityId: 5, metadata: null }, null],
    ['Student', { organization: { id: null, name: 'Stanford' } }, null],
    ['Student', { organization: { id: 1, name: '' } }, null],
    ['Student', { organization: { id: 9007199254740991 } }, null],
    [
      'Teacher',
      {
        locale: 'EN-us',
        externalUserId: '🎓'.repeat(256),
        deviceFingerprintHash: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
        phoneNumber: '+14155550100',
      },
      null,
    ],
    ['Teacher', { locale: null, externalUserId: null, deviceFingerprintHash: null }, null],
    ['Mover', { statuses: ['HOME_BUYER'], address1: '1 Main St' }, null],
    ['DriverLicense', { driverLicenseNumber: 'D123', state: 'CA', email: null }, null],
    ['Student', { metadata: { 'utm.source': 'mail', constructor: 'v' } }, null],
    ['Student', { metadata: metadataOfKeys(51) }, null],
    ['Student', { metadata: { k: 'v'.repeat(1025) } }, null],
    ['Student', [{ firstName: 'Jane' }], 'body must be a JSON object'],
    ['Student', 'Jane', 'body must be a JSON object'],
    [
      'Student',
      { firstName: 'Jane', phoneNumber: '1' },
      "Unexpected property 'phoneNumber'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    [
      'Student',
      { firstName: 'Jane', nickname: 'J' },
      "Unexpected property 'nickname'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    [
      'DriverLicense',
      { fingerprint: 'x' },
      "Unexpected property 'fingerprint'. Allowed keys: firstName, lastName, state, driverLicenseNumber, email, metadata, phoneNumber, locale, deviceFingerprintHash, externalUserId",
    ],
    [
      'Senior',
      { deviceId: 'x' },
      "Unexpected property 'deviceId'. Allowed keys: firstName, lastName, birthDate, postalCode, email, metadata, phoneNumber, locale, deviceFingerprintHash, externalUserId",
    ],
    [
      'Student',
      { locale: 'x' },
      "Unexpected property 'locale'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    [
      'Student',
      { externalUserId: 'x' },
      "Unexpected property 'externalUserId'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    [
      'Student',
      { deviceFingerprintHash: 'x' },
      "Unexpected property 'deviceFingerprintHash'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    [
      'Senior',
      { organization: { id: 1 } },
      "Unexpected property 'organization'. Allowed keys: firstName, lastName, birthDate, postalCode, email, metadata, phoneNumber, locale, deviceFingerprintHash, externalUserId",
    ],
    [
      'Student',
      JSON.parse('{"__proto__":{}}'),
      "Unexpected property '__proto__'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    ['Student', { firstName: 7 }, 'body.firstName must be a string'],
    ['Student', { email: true }, 'body.email must be a string'],
    ['Student', { firstName: ['Jane'] }, 'body.firstName must be a string'],
    ['Student', { universityId: '12' }, 'body.universityId must be a positive integer'],
    ['Student', { universityId: 9007199254740992 }, 'body.universityId must be a positive integer'],
    ['Student', { universityId: 0 }, 'body.universityId must be a positive integer'],
    ['Student', { universityId: 1.5 }, 'body.universityId must be a positive integer'],
    ['Mover', { statuses: 'HOME_BUYER' }, 'body.statuses must be an array of strings'],
    ['LowIncome', { statuses: ['SNAP_BENEFITS', 1] }, 'body.statuses must be an array of strings'],
    ['Mover', { statuses: [null] }, 'body.statuses must be an array of strings'],
    [
      'Student',
      { organization: 'Stanford' },
      'body.organization must be an object {id (integer), name (string)}',
    ],
    ['Student', { organization: [1] }, 'body.organization must be an object {id (integer), name (string)}'],
    ['Teacher', { organization: { id: '42' } }, 'body.organization.id must be a positive integer'],
    ['Teacher', { organization: { id: 4.2 } }, 'body.organization.id must be a positive integer'],
    ['Teacher', { organization: { id: 0 } }, 'body.organization.id must be a positive integer'],
    [
      'Teacher',
      { organization: { id: 9007199254740992 } },
      'body.organization.id must be a positive integer',
    ],
    ['Member', { organization: { id: 1, name: 2 } }, 'body.organization.name must be a string'],
    [
      'Student',
      { organization: { id: 1, country: 'US' } },
      "Unexpected property 'organization.country'. Allowed keys: id, name",
    ],
    [
      'Student',
      { organization: { country: 'US', id: 'x' } },
      "Unexpected property 'organization.country'. Allowed keys: id, name",
    ],
    ['Student', { organization: { name: 5, id: 'x' } }, 'body.organization.id must be a positive integer'],
    ['Student', { organization: {} }, 'body.organization must have an id or a non-empty name'],
    ['Student', { organization: { name: null } }, 'body.organization must have an id or a non-empty name'],
    ['Student', { organization: { name: '' } }, 'body.organization must have an id or a non-empty name'],
    [
      'Teacher',
      { organization: { id: null, name: '' } },
      'body.organization must have an id or a non-empty name',
    ],
    [
      'Teacher',
      { locale: 'en_US' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'Teacher',
      { locale: 7 },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'Teacher',
      { locale: '' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'Teacher',
      { locale: 'en-US-x' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'Member',
      { externalUserId: '' },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'Member',
      { externalUserId: 'a\u0000' },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'Age',
      { externalUserId: 'x'.repeat(257) },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'Teacher',
      { externalUserId: '🎓'.repeat(257) },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'Age',
      { deviceFingerprintHash: 'abc def' },
      'body.deviceFingerprintHash must be 1 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -',
    ],
    [
      'Senior',
      { deviceFingerprintHash: 'a'.repeat(129) },
      'body.deviceFingerprintHash must be 1 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -',
    ],
    [
      'Teacher',
      { deviceFingerprintHash: '' },
      'body.deviceFingerprintHash must be 1 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -',
    ],
    ['Student', { metadata: { a: { b: 'c' } } }, 'body.metadata["a"] must be a string'],
    ['Student', { metadata: ['a'] }, 'body.metadata must be an object of string values'],
    ['Student', { metadata: 'plan' }, 'body.metadata must be an object of string values'],
    ['Student', { metadata: { a: 1 } }, 'body.metadata["a"] must be a string'],
    ['Student', JSON.parse('{"metadata":{"__proto__":"x"}}'), 'body.metadata["__proto__"] is a reserved key'],
    ['Student', JSON.parse('{"metadata":{"a":1,"__proto__":"x"}}'), 'body.metadata["a"] must be a string'],
    [
      'Student',
      JSON.parse('{"metadata":{"__proto__":1,"a":1}}'),
      'body.metadata["__proto__"] is a reserved key',
    ],
    ['Student', { metadata: { 'a\u0000': 5 } }, 'body.metadata["a\\u0000"] must be a string'],
    ['Student', { firstName: 'Ja\u0000ne' }, 'body.firstName must not contain control characters'],
    [
      'Student',
      { lastName: 'x\u001b', firstName: 'y\u0085' },
      'body.firstName must not contain control characters',
    ],
    [
      'Student',
      { organization: { name: 'MIT\u001b' } },
      'body.organization.name must not contain control characters',
    ],
    [
      'LowIncome',
      { statuses: ['SNAP_BENEFITS\u001b'] },
      'body.statuses[0] must not contain control characters',
    ],
    ['Teacher', { phoneNumber: '+1\u2028' }, 'body.phoneNumber must not contain control characters'],
    [
      'Student',
      { metadata: { 'a\u0000b': 'v' } },
      'body.metadata key "a\\u0000b" must not contain control characters',
    ],
    [
      'Student',
      { metadata: { plan: 'pro\u0085' } },
      'body.metadata.plan must not contain control characters',
    ],
    [
      'Student',
      { metadata: { 'a.b': 'x\u0000' } },
      'body.metadata["a.b"] must not contain control characters',
    ],
    ['Student', { metadata: { '': 'v' } }, 'body.metadata key "" must NOT have fewer than 1 characters'],
    [
      'Student',
      { metadata: { plan: 'a\u0000', 'b\u0000': 'v' } },
      'body.metadata key "b\\u0000" must not contain control characters',
    ],
    ['Student', { email: 1, firstName: 2 }, 'body.email must be a string'],
    [
      'Student',
      { nickname: 'x', firstName: 1 },
      "Unexpected property 'nickname'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    ['Student', { firstName: 1, nickname: 'x' }, 'body.firstName must be a string'],
    [
      'Student',
      { firstName: 'a\u0000', nickname: 'x' },
      "Unexpected property 'nickname'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    ['Student', { firstName: 'a\u0000', email: 5 }, 'body.email must be a string'],
    [
      'Teacher',
      { metadata: { 'a\u0000': 'v' }, phoneNumber: 'x\u0000' },
      'body.phoneNumber must not contain control characters',
    ],
    ['Teacher', { metadata: { a: 1 }, firstName: 'x\u0000' }, 'body.metadata["a"] must be a string'],
  ])('%s %#: answered as before (%j)', (type, body, expected) => {
    expect(problemOf(type, body)).toBe(expected);
  });
});
