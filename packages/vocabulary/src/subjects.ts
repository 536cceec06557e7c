/** The subjects of a verification: their types and the JSON keys each personal-info body may carry. */

/**
 * The subject types of the spec's "Verification subjects" table, in its order. Each names a personal-info
 * step, `collect<Type>PersonalInfo`, and the body that step takes.
 */
export const SUBJECT_TYPES = [
  'Student',
  'ActiveMilitary',
  'InactiveMilitary',
  'Teacher',
  'Senior',
  'Age',
  'FirstResponder',
  'LicensedProfessional',
  'Mover',
  'MedicalProfessional',
  'DriverLicense',
  'GeneralIdentity',
  'Employee',
  'Member',
  'LowIncome',
] as const;

export type SubjectType = (typeof SUBJECT_TYPES)[number];

/**
 * Optional fields of the public v2 API that clients send with every personal-info body but the student's
 * (and the generic one's): `locale` (the verification's locale from then on), `deviceFingerprintHash`
 * (checked, not stored: nothing here uses it) and `externalUserId` (stored with the personal info, shown in
 * details). A type whose spec row lacks `metadata` or `phoneNumber` also takes them (stored like the others').
 */
const CLIENT_KEYS = ['locale', 'deviceFingerprintHash', 'externalUserId'] as const;

/**
 * The JSON keys each personal-info body may carry: the spec's subjects table (in its order), then the
 * clients' optional fields above. The member and employee forms also take the person's id with the customer
 * (`memberId`, `employeeId`), which the program's eligibility list can match; every form naming an
 * organization but Student's takes `organizationEmail`, the person's address there (the email loop's). The gateway rejects any other key with invalidRequest, so a misspelt field
 * ("birthdate") fails loudly instead of being ignored. Student keeps exactly its row (the spec fixes its
 * allowed keys), plus `universityId`, the older form's alternative to organization.id, which the spec's own
 * rejection message lists.
 */
export const SUBJECT_KEYS = {
  Student: ['firstName', 'lastName', 'birthDate', 'email', 'organization', 'universityId', 'metadata'],
  ActiveMilitary: [
    'firstName',
    'lastName',
    'birthDate',
    'email',
    'organization',
    'metadata',
    'phoneNumber',
    'organizationEmail',
    ...CLIENT_KEYS,
  ],
  InactiveMilitary: [
    'firstName',
    'lastName',
    'birthDate',
    'dischargeDate',
    'email',
    'organization',
    'metadata',
    'phoneNumber',
    'organizationEmail',
    ...CLIENT_KEYS,
  ],
  Teacher: [
    'firstName',
    'lastName',
    'birthDate',
    'email',
    'organization',
    'metadata',
    'phoneNumber',
    'organizationEmail',
    ...CLIENT_KEYS,
  ],
  Senior: [
    'firstName',
    'lastName',
    'birthDate',
    'postalCode',
    'email',
    'metadata',
    'phoneNumber',
    ...CLIENT_KEYS,
  ],
  Age: [
    'firstName',
    'lastName',
    'birthDate',
    'postalCode',
    'email',
    'phoneNumber',
    'country',
    'metadata',
    ...CLIENT_KEYS,
  ],
  FirstResponder: [
    'firstName',
    'lastName',
    'birthDate',
    'status',
    'email',
    'organization',
    'metadata',
    'phoneNumber',
    'organizationEmail',
    ...CLIENT_KEYS,
  ],
  LicensedProfessional: [
    'firstName',
    'lastName',
    'birthDate',
    'statuses',
    'email',
    'postalCode',
    'organization',
    'metadata',
    'phoneNumber',
    'organizationEmail',
    ...CLIENT_KEYS,
  ],
  Mover: [
    'firstName',
    'lastName',
    'email',
    'address1',
    'postalCode',
    'statuses',
    'metadata',
    'phoneNumber',
    ...CLIENT_KEYS,
  ],
  MedicalProfessional: [
    'firstName',
    'lastName',
    'birthDate',
    'status',
    'email',
    'postalCode',
    'organization',
    'metadata',
    'phoneNumber',
    'organizationEmail',
    ...CLIENT_KEYS,
  ],
  DriverLicense: [
    'firstName',
    'lastName',
    'state',
    'driverLicenseNumber',
    'email',
    'metadata',
    'phoneNumber',
    ...CLIENT_KEYS,
  ],
  GeneralIdentity: [
    'firstName',
    'lastName',
    'birthDate',
    'address1',
    'city',
    'state',
    'postalCode',
    'email',
    'metadata',
    'phoneNumber',
    ...CLIENT_KEYS,
  ],
  Employee: [
    'firstName',
    'lastName',
    'email',
    'address1',
    'city',
    'state',
    'postalCode',
    'organization',
    'metadata',
    'phoneNumber',
    'employeeId',
    'organizationEmail',
    ...CLIENT_KEYS,
  ],
  Member: [
    'firstName',
    'lastName',
    'email',
    'organization',
    'metadata',
    'phoneNumber',
    'memberId',
    'organizationEmail',
    ...CLIENT_KEYS,
  ],
  LowIncome: [
    'country',
    'firstName',
    'lastName',
    'birthDate',
    'address1',
    'city',
    'state',
    'postalCode',
    'phoneNumber',
    'email',
    'statuses',
    'ebtCardNumber',
    'metadata',
    ...CLIENT_KEYS,
  ],
} as const satisfies Record<SubjectType, readonly string[]>;

/** The spec: the generic collectPersonalInfo body has "the same fields as a student subject". */
export const GENERIC_SUBJECT_KEYS: readonly string[] = SUBJECT_KEYS.Student;

export type SubjectKey = (typeof SUBJECT_KEYS)[SubjectType][number];

export function hasKey(type: SubjectType, key: SubjectKey): boolean {
  return (SUBJECT_KEYS[type] as readonly string[]).includes(key);
}

/** The keys of a body that the type does not take, in the body's order. */
export function unexpectedKeys(type: SubjectType, bodyKeys: Iterable<string>): string[] {
  const allowed: readonly string[] = SUBJECT_KEYS[type];
  return [...bodyKeys].filter((key) => !allowed.includes(key));
}

/**
 * The systemErrorMessage of a body with an unknown key. Naming the allowed keys tells an integrator the fix
 * in one read, as the public service does. The generic path takes the Student keys: pass 'Student'.
 */
export function allowedKeysMessage(type: SubjectType, unexpected?: string): string {
  const list = `Allowed keys: ${SUBJECT_KEYS[type].join(', ')}`;
  return unexpected === undefined ? list : `Unexpected property '${unexpected}'. ${list}`;
}

/**
 * Keys a type takes but does not need (the verification service's validation and the hosted form's "optional"
 * labels): given, they must be valid; missing, they are fine. Only what the decision needs is required: an age
 * or senior program is decided from the birth date, so the postal code its form also lists is optional.
 * metadata, universityId and deviceFingerprintHash are an integrator's, never asked of a person.
 */
const ALWAYS_OPTIONAL_KEYS: ReadonlySet<string> = new Set([
  'phoneNumber',
  'country',
  'ebtCardNumber',
  'locale',
  'externalUserId',
  'memberId',
  'employeeId',
  'organizationEmail',
]);
const OPTIONAL_KEYS_OF: Partial<Record<SubjectType, ReadonlySet<string>>> = {
  Age: new Set(['postalCode']),
  Senior: new Set(['postalCode']),
};

export function isOptionalSubjectKey(type: SubjectType, key: string): boolean {
  return ALWAYS_OPTIONAL_KEYS.has(key) || OPTIONAL_KEYS_OF[type]?.has(key) === true;
}
