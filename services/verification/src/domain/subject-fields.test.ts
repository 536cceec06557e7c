import { SUBJECT_TYPES } from './steps';
import {
  allowedKeysMessage,
  GENERIC_SUBJECT_KEYS,
  hasKey,
  keysOfSubmission,
  SUBJECT_KEYS,
  unexpectedKeys,
} from './subject-fields';

const SPEC_TABLE = {
  Student: 'firstName, lastName, birthDate, email, organization, universityId, metadata',
  ActiveMilitary: 'firstName, lastName, birthDate, email, organization, metadata',
  InactiveMilitary: 'firstName, lastName, birthDate, dischargeDate, email, organization, metadata',
  Teacher: 'firstName, lastName, birthDate, email, organization, metadata',
  Senior: 'firstName, lastName, birthDate, postalCode, email, metadata',
  Age: 'firstName, lastName, birthDate, postalCode, email, phoneNumber, country, metadata',
  FirstResponder: 'firstName, lastName, birthDate, status, email, organization, metadata',
  LicensedProfessional: 'firstName, lastName, birthDate, statuses, email, postalCode, organization, metadata',
  Mover: 'firstName, lastName, email, address1, postalCode, statuses, metadata',
  MedicalProfessional: 'firstName, lastName, birthDate, status, email, postalCode, organization, metadata',
  DriverLicense: 'firstName, lastName, state, driverLicenseNumber, email',
  GeneralIdentity: 'firstName, lastName, birthDate, address1, city, state, postalCode, email',
  Employee: 'firstName, lastName, email, address1, city, state, postalCode, organization, metadata',
  Member: 'firstName, lastName, email, organization, metadata',
  LowIncome:
    'country, firstName, lastName, birthDate, address1, city, state, postalCode, phoneNumber, email, statuses, ebtCardNumber, metadata',
};

describe('SUBJECT_KEYS', () => {
  it.each(SUBJECT_TYPES)('%s takes exactly the keys of the spec table', (type) => {
    expect(SUBJECT_KEYS[type].join(', ')).toBe(SPEC_TABLE[type]);
  });

  it('gives the generic step the student keys', () => {
    expect(GENERIC_SUBJECT_KEYS).toEqual(SUBJECT_KEYS.Student);
  });

  it.each([
    ['Student', 'universityId', true],
    ['Teacher', 'universityId', false],
    ['DriverLicense', 'metadata', false],
    ['GeneralIdentity', 'metadata', false],
    ['LowIncome', 'organization', false],
    ['Senior', 'postalCode', true],
  ] as const)('hasKey(%s, %s) = %s', (type, key, expected) => {
    expect(hasKey(type, key)).toBe(expected);
  });
});

describe('keysOfSubmission', () => {
  it.each([
    ['collectStudentPersonalInfo', SUBJECT_KEYS.Student],
    ['collectMoverPersonalInfo', SUBJECT_KEYS.Mover],
    ['collectPersonalInfo', SUBJECT_KEYS.Student],
    ['collectMarketplaceToken', undefined],
  ] as const)('%s', (step, keys) => {
    expect(keysOfSubmission(step)).toEqual(keys);
  });
});

describe('unexpectedKeys', () => {
  it.each([
    ['Student', ['firstName', 'email', 'universityId'], []],
    ['Student', ['firstName', 'birthdate', 'foo'], ['birthdate', 'foo']],
    ['Teacher', ['universityId'], ['universityId']],
    ['DriverLicense', ['metadata', 'state'], ['metadata']],
    ['Member', ['constructor', '__proto__'], ['constructor', '__proto__']],
  ] as const)('%s with %j -> %j', (type, keys, expected) => {
    expect(unexpectedKeys(type, keys)).toEqual(expected);
  });
});

describe('allowedKeysMessage', () => {
  it.each([
    [
      'Student',
      'foo',
      "Unexpected property 'foo'. Allowed keys: firstName, lastName, birthDate, email, organization, universityId, metadata",
    ],
    [
      'DriverLicense',
      'metadata',
      "Unexpected property 'metadata'. Allowed keys: firstName, lastName, state, driverLicenseNumber, email",
    ],
    ['Member', undefined, 'Allowed keys: firstName, lastName, email, organization, metadata'],
  ] as const)('%s / %s', (type, unexpected, message) => {
    expect(allowedKeysMessage(type, unexpected)).toBe(message);
  });
});
