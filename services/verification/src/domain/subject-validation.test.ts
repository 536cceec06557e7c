import { SUBJECT_KEYS, SUBJECT_TYPES, type ErrorId, type SubjectType } from '@eligo/vocabulary';
import type { SubjectInput } from './subject';
import { invalidRequestMessage, validateSubject, type ValidationContext } from './subject-validation';

const ctx: ValidationContext = { today: '2024-05-10' };

/** A valid value for every field a type may take; each type's fixture picks its own keys. */
const VALID: Required<SubjectInput> = {
  firstName: 'Ann',
  lastName: 'Lee',
  birthDate: '1990-04-01',
  email: 'ann.lee@example.com',
  organization: { id: 42, name: 'State University' },
  metadata: { orderId: '123' },
  postalCode: '94105',
  phoneNumber: '+14155550100',
  country: 'US',
  dischargeDate: '2015-06-30',
  status: '',
  statuses: [],
  address1: '1 Main St',
  city: 'San Francisco',
  state: 'CA',
  driverLicenseNumber: 'D1234567',
  ebtCardNumber: '',
  universityId: 0,
  locale: 'fr-CA',
  externalUserId: 'user-42',
  memberId: 'M-0042',
  employeeId: 'E-0042',
  organizationEmail: 'jane.doe@acme.com',
};

const STATUS: Partial<Record<SubjectType, string>> = {
  FirstResponder: 'POLICE',
  MedicalProfessional: 'NURSE',
};

function valid(type: SubjectType): SubjectInput {
  const subject: Record<string, unknown> = {};
  for (const key of SUBJECT_KEYS[type]) subject[key] = VALID[key as keyof SubjectInput];
  if (STATUS[type]) subject.status = STATUS[type];
  return subject as SubjectInput;
}

function check(type: SubjectType, overrides: SubjectInput, context = ctx): ErrorId[] {
  return validateSubject(type, { ...valid(type), ...overrides }, context);
}

describe('validateSubject: valid bodies', () => {
  it.each(SUBJECT_TYPES)('a complete %s body has no problems', (type) => {
    expect(validateSubject(type, valid(type), ctx)).toEqual([]);
  });

  it('judges the normalised form (spaces, email case)', () => {
    expect(
      check('Student', { firstName: ' Ann ', email: ' Ann.Lee@Example.COM ', birthDate: ' 1990-04-01 ' }),
    ).toEqual([]);
  });

  it('ignores fields the type does not take', () => {
    expect(check('Member', { birthDate: 'garbage', postalCode: 'x', state: 'ZZ' })).toEqual([]);
  });
});

describe('validateSubject: names', () => {
  it.each<[SubjectInput, ErrorId[]]>([
    [{ firstName: '' }, ['invalidFirstName']],
    [{ firstName: '   ' }, ['invalidFirstName']],
    [{ firstName: undefined }, ['invalidFirstName']],
    [{ lastName: '' }, ['invalidLastName']],
    [{ firstName: '-', lastName: '123' }, ['invalidFirstName', 'invalidLastName']],
    [{ firstName: 'a'.repeat(100) }, []],
    [{ firstName: 'a'.repeat(101) }, ['invalidFirstName']],
    [{ firstName: 'Ann\u0000' }, ['invalidFirstName']],
    [{ lastName: 'Lee\nSmith' }, ['invalidLastName']],
    [{ firstName: 'José', lastName: "O'Brien-Núñez" }, []],
    [{ firstName: '李', lastName: 'Дмитрий' }, []],
  ])('%j -> %j', (overrides, expected) => {
    expect(check('Student', overrides)).toEqual(expected);
  });
});

describe('validateSubject: birth date', () => {
  it.each<[SubjectType, SubjectInput, ErrorId[]]>([
    ['Student', { birthDate: '' }, ['invalidBirthDate']],
    ['Student', { birthDate: '1990-02-30' }, ['invalidBirthDate']],
    ['Student', { birthDate: '04/01/1990' }, ['invalidBirthDate']],
    ['Student', { birthDate: '1899-12-31' }, ['invalidBirthDate']],
    ['Student', { birthDate: '1900-01-01' }, []],
    ['Student', { birthDate: '2024-05-10' }, []],
    ['Student', { birthDate: '2024-05-11' }, ['futureBirthDate']],
    ['Senior', { birthDate: '2030-01-01' }, ['futureBirthDate']],
    // Types without a birth date never ask for one.
    ['Mover', { birthDate: '' }, []],
    ['DriverLicense', { birthDate: '' }, []],
    ['Employee', { birthDate: '' }, []],
  ])('%s %j -> %j', (type, overrides, expected) => {
    expect(check(type, overrides)).toEqual(expected);
  });
});

describe('validateSubject: discharge date (InactiveMilitary)', () => {
  it.each<[SubjectInput, ErrorId[]]>([
    [{ dischargeDate: '' }, ['invalidDischargeDate']],
    [{ dischargeDate: '2015-13-01' }, ['invalidDischargeDate']],
    [{ dischargeDate: '2024-05-11' }, ['invalidDischargeDate']],
    [{ dischargeDate: '2024-05-10' }, []],
    [{ dischargeDate: '1989-12-31' }, ['dischargeDateBeforeBirthDate']],
    [{ dischargeDate: '1990-04-01' }, []],
    // With a bad birth date there is nothing to compare against: only the birth date is reported.
    [{ dischargeDate: '1989-12-31', birthDate: 'x' }, ['invalidBirthDate']],
  ])('%j -> %j', (overrides, expected) => {
    expect(check('InactiveMilitary', overrides)).toEqual(expected);
  });

  it('is not asked of active military', () => {
    expect(check('ActiveMilitary', { dischargeDate: '' })).toEqual([]);
  });
});

describe('validateSubject: email', () => {
  it.each<[SubjectInput, ErrorId[]]>([
    [{ email: '' }, ['invalidEmail']],
    [{ email: 'ann' }, ['invalidEmail']],
    [{ email: 'ann@' }, ['invalidEmail']],
    [{ email: 'ann@example' }, ['invalidEmail']],
    [{ email: 'ann lee@example.com' }, ['invalidEmail']],
    [
      { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.com` },
      ['invalidEmail'],
    ],
    [{ email: 'ann+offers@sub.example.co.uk' }, []],
  ])('%j -> %j', (overrides, expected) => {
    expect(check('DriverLicense', overrides)).toEqual(expected);
  });
});

describe('validateSubject: organization', () => {
  it.each<[SubjectType, SubjectInput, ErrorId[]]>([
    ['Student', { organization: undefined }, ['noOrganization']],
    ['Student', { organization: { id: 0, name: '' } }, ['noOrganization']],
    ['Student', { organization: { id: 0, name: '   ' } }, ['noOrganization']],
    ['Student', { organization: { id: 7, name: '' } }, []],
    ['Student', { organization: { id: 0, name: 'Some College' } }, []],
    ['Student', { organization: undefined, universityId: 7 }, []],
    ['Teacher', { organization: undefined }, ['noOrganization']],
    ['ActiveMilitary', { organization: undefined }, ['noOrganization']],
    ['Employee', { organization: undefined }, ['noOrganization']],
    ['Member', { organization: undefined }, ['noOrganization']],
    ['Senior', { organization: undefined }, []],
    ['LowIncome', { organization: undefined }, []],
  ])('%s %j -> %j', (type, overrides, expected) => {
    expect(check(type, overrides)).toEqual(expected);
  });
});

describe('validateSubject: postal code, phone, country', () => {
  it.each<[SubjectType, SubjectInput, ValidationContext, ErrorId[]]>([
    // Age and senior programs are decided from the birth date: the postal code is optional, but checked.
    ['Senior', { postalCode: '' }, ctx, []],
    ['Senior', { postalCode: undefined }, ctx, []],
    ['Age', { postalCode: '' }, ctx, []],
    ['Age', { postalCode: '' }, { ...ctx, country: 'US' }, []],
    ['Age', { postalCode: 'ABCDE' }, ctx, ['invalidPostalCode']],
    // Elsewhere it is part of the identity or address being verified.
    ['LicensedProfessional', { postalCode: '' }, ctx, ['invalidPostalCode']],
    ['MedicalProfessional', { postalCode: '' }, ctx, ['invalidPostalCode']],
    ['Mover', { postalCode: '' }, ctx, ['invalidPostalCode']],
    ['GeneralIdentity', { postalCode: '' }, ctx, ['invalidPostalCode']],
    ['LowIncome', { postalCode: '' }, ctx, ['invalidPostalCode']],
    ['Senior', { postalCode: 'ABCDE' }, ctx, ['invalidPostalCode']],
    ['Senior', { postalCode: '94105-1234' }, ctx, []],
    ['Senior', { postalCode: 'SW1A 1AA' }, ctx, []],
    // A known country is held to its own format.
    ['Senior', { postalCode: 'SW1A 1AA' }, { ...ctx, country: 'US' }, ['invalidPostalCode']],
    ['Senior', { postalCode: 'SW1A 1AA' }, { ...ctx, country: 'gb' }, []],
    ['Age', { postalCode: 'SW1A 1AA', country: 'GB' }, ctx, []],
    ['Age', { postalCode: '94105', country: 'GB' }, ctx, ['invalidPostalCode']],
    ['Age', { phoneNumber: '' }, ctx, []],
    ['Age', { phoneNumber: '(415) 555-0100' }, ctx, []],
    ['Age', { phoneNumber: '+44 20 7946 0958' }, ctx, []],
    ['Age', { phoneNumber: '+44 7911 123456' }, ctx, []],
    ['Age', { phoneNumber: '12' }, ctx, ['invalidPhoneNumber']],
    ['Age', { phoneNumber: 'call me' }, ctx, ['invalidPhoneNumber']],
    ['Age', { country: '' }, ctx, []],
    ['Age', { country: 'us' }, ctx, []],
    ['Age', { country: 'XX' }, ctx, ['invalidRequest']],
    ['Age', { country: 'USA' }, ctx, ['invalidRequest']],
    ['LowIncome', { phoneNumber: 'x' }, ctx, ['invalidPhoneNumber']],
    ['Employee', { postalCode: '' }, ctx, ['invalidPostalCode']],
  ])('%s %j %j -> %j', (type, overrides, context, expected) => {
    expect(check(type, overrides, context)).toEqual(expected);
  });
});

describe("validateSubject: the clients' optional fields", () => {
  it.each<[SubjectType, SubjectInput, ErrorId[]]>([
    // phoneNumber on every type whose spec row lacks it: optional, checked like Age's when given.
    ['Teacher', { phoneNumber: '' }, []],
    ['Teacher', { phoneNumber: '+1 415 555 0100' }, []],
    ['Teacher', { phoneNumber: '12' }, ['invalidPhoneNumber']],
    ['DriverLicense', { phoneNumber: 'call me' }, ['invalidPhoneNumber']],
    ['Member', { phoneNumber: '+44 7911 123456' }, []],
    // locale: optional; a BCP 47 tag (language, script, region), in any case.
    ['Teacher', { locale: '' }, []],
    ['Teacher', { locale: 'EN-us' }, []],
    ['Employee', { locale: 'zh-Hant-TW' }, []],
    ['Teacher', { locale: 'en_US' }, ['invalidRequest']],
    ['Teacher', { locale: 'english' }, ['invalidRequest']],
    ['Teacher', { locale: 'englishes' }, ['invalidRequest']],
    ['Teacher', { locale: `en-${'a'.repeat(8)}-${'b'.repeat(8)}-${'c'.repeat(8)}-dddd` }, ['invalidRequest']],
    ['Age', { locale: 'en-US\n' }, ['invalidRequest']],
    // externalUserId: optional; 1 to 256 characters, no control characters.
    ['Teacher', { externalUserId: '' }, []],
    ['Teacher', { externalUserId: 'x'.repeat(256) }, []],
    ['Teacher', { externalUserId: '𠮷'.repeat(256) }, []],
    ['Teacher', { externalUserId: 'x'.repeat(257) }, ['invalidRequest']],
    ['LowIncome', { externalUserId: 'user\u000042' }, ['invalidRequest']],
    // organizationEmail (the email loop's address): optional; given, an address.
    ['Member', { organizationEmail: '' }, []],
    ['Teacher', { organizationEmail: ' Jane@School.EDU ' }, []],
    ['Member', { organizationEmail: 'not an address' }, ['invalidRequest']],
    ['Employee', { organizationEmail: `${'x'.repeat(250)}@acme.com` }, ['invalidRequest']],
    // Not taken by the student form (nor by a type without an organization): never judged there.
    ['Student', { organizationEmail: 'not an address' }, []],
    ['Senior', { organizationEmail: 'not an address' }, []],
  ])('%s %j -> %j', (type, overrides, expected) => {
    expect(check(type, overrides)).toEqual(expected);
  });

  it('leaves them to the types that take them: the student form takes none', () => {
    expect(check('Student', { locale: 'en_US', externalUserId: '\u0000', phoneNumber: 'x' })).toEqual([]);
  });

  it('names the field in the message', () => {
    expect(invalidRequestMessage('Teacher', { ...valid('Teacher'), locale: 'en_US' }, ctx)).toBe(
      'locale: must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    );
    expect(invalidRequestMessage('Member', { ...valid('Member'), externalUserId: 'a\nb' }, ctx)).toBe(
      'externalUserId: must be 1 to 256 characters without control characters',
    );
  });
});

describe('validateSubject: address', () => {
  it.each<[SubjectType, SubjectInput, ValidationContext, ErrorId[]]>([
    ['GeneralIdentity', { address1: '' }, ctx, ['invalidAddress1']],
    ['GeneralIdentity', { address1: 'x'.repeat(201) }, ctx, ['invalidAddress1']],
    ['GeneralIdentity', { address1: 'x'.repeat(200) }, ctx, []],
    ['GeneralIdentity', { city: '' }, ctx, ['invalidCity']],
    ['GeneralIdentity', { city: 'San\nFrancisco' }, ctx, ['invalidCity']],
    ['GeneralIdentity', { state: '' }, ctx, ['invalidState']],
    ['GeneralIdentity', { state: 'ZZ' }, ctx, ['invalidState']],
    ['GeneralIdentity', { state: 'California' }, ctx, ['invalidState']],
    ['GeneralIdentity', { state: 'ny' }, ctx, []],
    ['GeneralIdentity', { state: 'PR' }, ctx, []],
    ['GeneralIdentity', { state: 'AE' }, ctx, []],
    ['GeneralIdentity', { state: 'DC' }, ctx, []],
    // Outside the US the state is a region name.
    ['GeneralIdentity', { state: 'Ontario', postalCode: 'K1A 0B1' }, { ...ctx, country: 'CA' }, []],
    ['GeneralIdentity', { state: '', postalCode: 'K1A 0B1' }, { ...ctx, country: 'CA' }, ['invalidState']],
    // Puerto Rico has an ISO country code but US addresses.
    ['GeneralIdentity', { state: 'ZZ', postalCode: '00901' }, { ...ctx, country: 'PR' }, ['invalidState']],
    ['GeneralIdentity', { state: 'PR', postalCode: '00901' }, { ...ctx, country: 'PR' }, []],
    ['LowIncome', { state: 'Bavaria', country: 'DE', postalCode: '80331' }, ctx, []],
    ['Mover', { address1: '' }, ctx, ['invalidAddress1']],
    ['Mover', { city: '', state: '' }, ctx, []],
    ['DriverLicense', { state: 'XX' }, ctx, ['invalidState']],
    [
      'Employee',
      { address1: '', city: '', state: '' },
      ctx,
      ['invalidAddress1', 'invalidCity', 'invalidState'],
    ],
  ])('%s %j %j -> %j', (type, overrides, context, expected) => {
    expect(check(type, overrides, context)).toEqual(expected);
  });
});

describe('validateSubject: statuses', () => {
  it.each<[SubjectType, SubjectInput, ErrorId[]]>([
    ['FirstResponder', { status: '' }, ['invalidRequest']],
    ['FirstResponder', { status: 'NURSE' }, ['invalidRequest']],
    ['FirstResponder', { status: 'police' }, ['invalidRequest']],
    ['FirstResponder', { status: 'SEARCH_AND_RESCUE' }, []],
    ['MedicalProfessional', { status: '' }, ['invalidRequest']],
    ['MedicalProfessional', { status: 'DENTIST' }, []],
    ['Mover', { statuses: [] }, []],
    ['Mover', { statuses: ['HOME_BUYER', 'OTHER_MOVER'] }, []],
    ['Mover', { statuses: ['HOME_BUYER', 'RENTER'] }, ['invalidRequest']],
    ['LowIncome', { statuses: ['SNAP_BENEFITS'] }, []],
    ['LowIncome', { statuses: ['HOME_BUYER'] }, ['invalidRequest']],
    ['LicensedProfessional', { statuses: [] }, []],
    ['LicensedProfessional', { statuses: ['LICENSED_COSMETOLOGIST'] }, []],
    ['LicensedProfessional', { statuses: ['VETERINARIAN', 'NUTRITION_PROFESSIONAL'] }, []],
    ['LicensedProfessional', { statuses: ['NURSE'] }, ['invalidRequest']],
    ['LicensedProfessional', { statuses: ['architect'] }, ['invalidRequest']],
  ])('%s %j -> %j', (type, overrides, expected) => {
    expect(check(type, overrides)).toEqual(expected);
  });

  it('narrows the statuses to the sub-segments the program offers', () => {
    const onlyArchitects = { ...ctx, programSubSegments: ['architect'] };
    expect(check('LicensedProfessional', { statuses: ['ARCHITECT'] }, onlyArchitects)).toEqual([]);
    expect(check('LicensedProfessional', { statuses: ['LIBRARIAN'] }, onlyArchitects)).toEqual([
      'invalidRequest',
    ]);
  });
});

describe('invalidRequestMessage', () => {
  it.each<[SubjectType, SubjectInput, ValidationContext, string | undefined]>([
    [
      'LicensedProfessional',
      { statuses: ['ARCHITECT', 'NURSE'] },
      ctx,
      "statuses: 'NURSE' is not an allowed value. Allowed values: LICENSED_COSMETOLOGIST, " +
        'LICENSED_REAL_ESTATE_AGENT, VETERINARIAN, CHILD_CARE_WORKER, LIBRARIAN, INTERIOR_DESIGNER, ARCHITECT, ' +
        'GENERAL_CONTRACTOR, NUTRITION_PROFESSIONAL',
    ],
    [
      'LicensedProfessional',
      { statuses: ['LIBRARIAN'] },
      { ...ctx, programSubSegments: ['architect'] },
      "statuses: 'LIBRARIAN' is not an allowed value. Allowed values: ARCHITECT",
    ],
    [
      'FirstResponder',
      { status: 'NURSE' },
      ctx,
      "status: 'NURSE' is not an allowed value. Allowed values: POLICE, EMT, FIREFIGHTER, SEARCH_AND_RESCUE",
    ],
    [
      'FirstResponder',
      { status: '' },
      ctx,
      'status is required. Allowed values: POLICE, EMT, FIREFIGHTER, SEARCH_AND_RESCUE',
    ],
    [
      'MedicalProfessional',
      { status: 'POLICE' },
      ctx,
      "status: 'POLICE' is not an allowed value. Allowed values: NURSE, DOCTOR, DENTIST, PHARMACIST, " +
        'OTHER_HEALTH_WORKER',
    ],
    [
      'Mover',
      { statuses: ['RENTER'] },
      ctx,
      "statuses: 'RENTER' is not an allowed value. Allowed values: HOME_BUYER, OTHER_MOVER",
    ],
    [
      'LowIncome',
      { statuses: ['HOME_BUYER'], country: 'XX' },
      ctx,
      "country: 'XX' is not an ISO 3166-1 alpha-2 code; statuses: 'HOME_BUYER' is not an allowed value. " +
        'Allowed values: SNAP_BENEFITS, OTHER_GOVERNMENT_ASSISTANCE',
    ],
    [
      'DriverLicense',
      { driverLicenseNumber: 'D1/2' },
      ctx,
      'driverLicenseNumber: 1 to 32 letters, digits, spaces or hyphens',
    ],
    ['Mover', { statuses: ['HOME_BUYER'] }, ctx, undefined],
    // Problems a person fixes carry their own errorIds, no message.
    ['Student', { email: 'x' }, ctx, undefined],
  ])('%s %j -> %s', (type, overrides, context, message) => {
    expect(invalidRequestMessage(type, { ...valid(type), ...overrides }, context)).toBe(message);
  });
});

describe('validateSubject: driver licence and EBT card', () => {
  it.each<[SubjectType, SubjectInput, ErrorId[]]>([
    ['DriverLicense', { driverLicenseNumber: '' }, ['invalidRequest']],
    ['DriverLicense', { driverLicenseNumber: 'A'.repeat(33) }, ['invalidRequest']],
    ['DriverLicense', { driverLicenseNumber: 'A'.repeat(32) }, []],
    ['DriverLicense', { driverLicenseNumber: 'S530-4602 3321' }, []],
    ['DriverLicense', { driverLicenseNumber: 'D123/456' }, ['invalidRequest']],
    ['LowIncome', { ebtCardNumber: '' }, []],
    ['LowIncome', { ebtCardNumber: '5077 1234 5678 9012' }, []],
    ['LowIncome', { ebtCardNumber: '5077123456789012345' }, []],
    ['LowIncome', { ebtCardNumber: '1234' }, ['invalidRequest']],
    ['LowIncome', { ebtCardNumber: 'ABCD123412341234' }, ['invalidRequest']],
  ])('%s %j -> %j', (type, overrides, expected) => {
    expect(check(type, overrides)).toEqual(expected);
  });
});

describe('validateSubject: several problems', () => {
  it('lists them in form order, each errorId once', () => {
    expect(
      check('LowIncome', {
        ebtCardNumber: '1',
        statuses: ['X'],
        state: '',
        city: '',
        address1: '',
        country: 'XX',
        phoneNumber: 'x',
        postalCode: '',
        email: '',
        birthDate: '',
        lastName: '',
        firstName: '',
      }),
    ).toEqual([
      'invalidFirstName',
      'invalidLastName',
      'invalidBirthDate',
      'invalidEmail',
      'invalidPostalCode',
      'invalidPhoneNumber',
      'invalidRequest',
      'invalidAddress1',
      'invalidCity',
      'invalidState',
    ]);
  });

  it('asks an age body for exactly what the decision needs: names, birth date and email', () => {
    expect(
      validateSubject(
        'Age',
        { firstName: 'Ann', lastName: 'Lee', birthDate: '1990-04-01', email: 'ann@example.com' },
        ctx,
      ),
    ).toEqual([]);
    expect(
      validateSubject('Age', { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' }, ctx),
    ).toEqual(['invalidBirthDate']);
  });

  it('reports an empty body of every type as invalid', () => {
    for (const type of SUBJECT_TYPES) expect(validateSubject(type, {}, ctx)).toContain('invalidFirstName');
  });
});
