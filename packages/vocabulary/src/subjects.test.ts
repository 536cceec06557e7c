import {
  allowedKeysMessage,
  GENERIC_SUBJECT_KEYS,
  hasKey,
  SUBJECT_KEYS,
  SUBJECT_TYPES,
  unexpectedKeys,
} from './subjects';

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

/** The optional fields clients send, taken by every type but Student (whose keys the spec fixes). */
const CLIENT_FIELDS = ['metadata', 'phoneNumber', 'locale', 'deviceFingerprintHash', 'externalUserId'];
/** The person's id with the customer, which an eligibility list matches (issue 22), before the client fields. */
const LIST_IDS: Partial<Record<string, string>> = { Employee: 'employeeId', Member: 'memberId' };

describe('SUBJECT_KEYS', () => {
  it('Student takes exactly the keys of the spec table and its rejection message', () => {
    expect(SUBJECT_KEYS.Student.join(', ')).toBe(SPEC_TABLE.Student);
  });

  it.each(SUBJECT_TYPES.filter((t) => t !== 'Student'))(
    '%s takes the keys of the spec table, then the optional fields clients send',
    (type) => {
      const spec = SPEC_TABLE[type].split(', ');
      const added = CLIENT_FIELDS.filter((key) => !spec.includes(key));
      const listId = LIST_IDS[type];
      const clientFields = ['locale', 'deviceFingerprintHash', 'externalUserId'];
      const before = added.filter((key) => !clientFields.includes(key));
      const after = added.filter((key) => clientFields.includes(key));
      // The person's address at the organization (the email loop's, issue 22): the forms naming one.
      const orgEmail = spec.includes('organization') ? ['organizationEmail'] : [];
      expect(SUBJECT_KEYS[type]).toEqual([
        ...spec,
        ...before,
        ...(listId ? [listId] : []),
        ...orgEmail,
        ...after,
      ]);
    },
  );

  it('gives the generic step the student keys', () => {
    expect(GENERIC_SUBJECT_KEYS).toEqual(SUBJECT_KEYS.Student);
  });

  it.each([
    ['Student', 'universityId', true],
    ['Teacher', 'universityId', false],
    ['DriverLicense', 'metadata', true],
    ['GeneralIdentity', 'metadata', true],
    ['Student', 'locale', false],
    ['Student', 'phoneNumber', false],
    ['Teacher', 'phoneNumber', true],
    ['Teacher', 'externalUserId', true],
    ['LowIncome', 'organization', false],
    ['Senior', 'postalCode', true],
  ] as const)('hasKey(%s, %s) = %s', (type, key, expected) => {
    expect(hasKey(type, key)).toBe(expected);
  });
});

describe('unexpectedKeys', () => {
  it.each([
    ['Student', ['firstName', 'email', 'universityId'], []],
    ['Student', ['firstName', 'birthdate', 'foo'], ['birthdate', 'foo']],
    ['Teacher', ['universityId'], ['universityId']],
    ['DriverLicense', ['metadata', 'state', 'locale'], []],
    [
      'Student',
      ['locale', 'externalUserId', 'deviceFingerprintHash', 'phoneNumber'],
      ['locale', 'externalUserId', 'deviceFingerprintHash', 'phoneNumber'],
    ],
    ['Teacher', ['locale', 'fingerprint'], ['fingerprint']],
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
      'foo',
      "Unexpected property 'foo'. Allowed keys: firstName, lastName, state, driverLicenseNumber, email, " +
        'metadata, phoneNumber, locale, deviceFingerprintHash, externalUserId',
    ],
    [
      'Member',
      undefined,
      'Allowed keys: firstName, lastName, email, organization, metadata, phoneNumber, memberId, ' +
        'organizationEmail, locale, deviceFingerprintHash, externalUserId',
    ],
  ] as const)('%s / %s', (type, unexpected, message) => {
    expect(allowedKeysMessage(type, unexpected)).toBe(message);
  });
});
