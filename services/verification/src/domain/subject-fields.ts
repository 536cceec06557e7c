import { subjectTypeOfStep, type SubjectType, type SubmissionStep } from './steps';

/**
 * The JSON keys each personal-info body may carry, exactly as the spec's subjects table lists them (in its
 * order). The gateway rejects any other key with invalidRequest, so a misspelt field ("birthdate") fails
 * loudly instead of being ignored. Student also takes `universityId`, the older form's alternative to
 * organization.id, which the spec's own rejection message lists.
 */
export const SUBJECT_KEYS = {
  Student: ['firstName', 'lastName', 'birthDate', 'email', 'organization', 'universityId', 'metadata'],
  ActiveMilitary: ['firstName', 'lastName', 'birthDate', 'email', 'organization', 'metadata'],
  InactiveMilitary: [
    'firstName',
    'lastName',
    'birthDate',
    'dischargeDate',
    'email',
    'organization',
    'metadata',
  ],
  Teacher: ['firstName', 'lastName', 'birthDate', 'email', 'organization', 'metadata'],
  Senior: ['firstName', 'lastName', 'birthDate', 'postalCode', 'email', 'metadata'],
  Age: ['firstName', 'lastName', 'birthDate', 'postalCode', 'email', 'phoneNumber', 'country', 'metadata'],
  FirstResponder: ['firstName', 'lastName', 'birthDate', 'status', 'email', 'organization', 'metadata'],
  LicensedProfessional: [
    'firstName',
    'lastName',
    'birthDate',
    'statuses',
    'email',
    'postalCode',
    'organization',
    'metadata',
  ],
  Mover: ['firstName', 'lastName', 'email', 'address1', 'postalCode', 'statuses', 'metadata'],
  MedicalProfessional: [
    'firstName',
    'lastName',
    'birthDate',
    'status',
    'email',
    'postalCode',
    'organization',
    'metadata',
  ],
  DriverLicense: ['firstName', 'lastName', 'state', 'driverLicenseNumber', 'email'],
  GeneralIdentity: ['firstName', 'lastName', 'birthDate', 'address1', 'city', 'state', 'postalCode', 'email'],
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
  ],
  Member: ['firstName', 'lastName', 'email', 'organization', 'metadata'],
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
  ],
} as const satisfies Record<SubjectType, readonly string[]>;

/** The spec: the generic collectPersonalInfo body has "the same fields as a student subject". */
export const GENERIC_SUBJECT_KEYS: readonly string[] = SUBJECT_KEYS.Student;

export type SubjectKey = (typeof SUBJECT_KEYS)[SubjectType][number];

export function hasKey(type: SubjectType, key: SubjectKey): boolean {
  return (SUBJECT_KEYS[type] as readonly string[]).includes(key);
}

/**
 * The keys a body posted to a submission path may carry. Undefined for collectMarketplaceToken: its body is
 * a signed token, whose payload is judged by the keys of the step it fills once the signature is checked.
 */
export function keysOfSubmission(step: SubmissionStep): readonly string[] | undefined {
  if (step === 'collectPersonalInfo') return GENERIC_SUBJECT_KEYS;
  const type = subjectTypeOfStep(step);
  return type === undefined ? undefined : SUBJECT_KEYS[type];
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
