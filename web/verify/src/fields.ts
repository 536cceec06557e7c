import {
  GENERIC_SUBJECT_KEYS,
  isOptionalSubjectKey,
  SUBJECT_KEYS,
  type SubjectType,
} from '@eligo/vocabulary';

export type FieldKind = 'text' | 'email' | 'date' | 'tel' | 'organization' | 'status' | 'statuses';

export interface Field {
  key: string;
  kind: FieldKind;
  required: boolean;
  autocomplete?: string;
  maxLength?: number;
}

/** Keys an integrator sends, never asked of the person on the form. */
const NOT_ASKED = new Set(['metadata', 'universityId', 'locale', 'deviceFingerprintHash', 'externalUserId']);

const KIND: Record<string, Pick<Field, 'kind' | 'autocomplete' | 'maxLength'>> = {
  firstName: { kind: 'text', autocomplete: 'given-name', maxLength: 100 },
  lastName: { kind: 'text', autocomplete: 'family-name', maxLength: 100 },
  birthDate: { kind: 'date', autocomplete: 'bday' },
  dischargeDate: { kind: 'date' },
  email: { kind: 'email', autocomplete: 'email', maxLength: 254 },
  phoneNumber: { kind: 'tel', autocomplete: 'tel', maxLength: 32 },
  postalCode: { kind: 'text', autocomplete: 'postal-code', maxLength: 16 },
  country: { kind: 'text', autocomplete: 'country', maxLength: 2 },
  address1: { kind: 'text', autocomplete: 'address-line1', maxLength: 200 },
  city: { kind: 'text', autocomplete: 'address-level2', maxLength: 200 },
  state: { kind: 'text', autocomplete: 'address-level1', maxLength: 2 },
  organization: { kind: 'organization' },
  status: { kind: 'status' },
  statuses: { kind: 'statuses' },
  memberId: { kind: 'text', maxLength: 256 },
  employeeId: { kind: 'text', maxLength: 256 },
  organizationEmail: { kind: 'email', autocomplete: 'work email', maxLength: 254 },
};

/** `collectStudentPersonalInfo` → Student; the generic `collectPersonalInfo` takes the student's keys. */
export function subjectTypeOf(step: string): SubjectType | 'generic' | undefined {
  if (step === 'collectPersonalInfo') return 'generic';
  const type = /^collect(\w+)PersonalInfo$/.exec(step)?.[1];
  return type && type in SUBJECT_KEYS ? (type as SubjectType) : undefined;
}

/** The form of a personal-info step: the subject's keys in the spec's order, what the server requires marked. */
export function fieldsOf(type: SubjectType | 'generic'): Field[] {
  const keys = type === 'generic' ? GENERIC_SUBJECT_KEYS : SUBJECT_KEYS[type];
  return keys
    .filter((key) => !NOT_ASKED.has(key))
    .map((key) => ({
      key,
      ...(KIND[key] ?? { kind: 'text' as const, maxLength: 100 }),
      required: !isOptionalSubjectKey(type === 'generic' ? 'Student' : type, key),
    }));
}

/** Which field an errorId of the server is about, so that its text shows beside that field. */
export const FIELD_OF_ERROR: Readonly<Record<string, string>> = {
  invalidFirstName: 'firstName',
  invalidLastName: 'lastName',
  invalidBirthDate: 'birthDate',
  futureBirthDate: 'birthDate',
  invalidDischargeDate: 'dischargeDate',
  invalidEmail: 'email',
  invalidOrganization: 'organization',
  noOrganization: 'organization',
  invalidPostalCode: 'postalCode',
  invalidPhoneNumber: 'phoneNumber',
  invalidMilitaryStatus: 'status',
  invalidSocialSecurityNumber: 'socialSecurityNumber',
  invalidState: 'state',
  invalidCity: 'city',
  invalidAddress: 'address1',
  invalidDriverLicenseNumber: 'driverLicenseNumber',
};

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/**
 * The checks the page makes before sending (the server's rules, in short): required fields, an email's shape, a
 * real date not in the future. Answers a message key per field in trouble; the server decides the rest.
 */
export function clientProblems(
  fields: readonly Field[],
  values: Record<string, unknown>,
  today: string,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.key];
    const empty =
      value === undefined || value === '' || (Array.isArray(value) && value.length === 0) || value === null;
    if (empty) {
      if (field.required)
        problems[field.key] = field.kind === 'organization' ? 'check.organization' : 'field.required';
      continue;
    }
    if (field.kind === 'email' && !EMAIL.test(String(value))) problems[field.key] = 'check.email';
    if (field.kind === 'date') {
      const text = String(value);
      const date = new Date(`${text}T00:00:00Z`);
      if (
        !/^\d{4}-\d{2}-\d{2}$/.test(text) ||
        Number.isNaN(date.getTime()) ||
        date.toISOString().slice(0, 10) !== text
      )
        problems[field.key] = 'check.date';
      else if (text > today) problems[field.key] = 'check.futureDate';
    }
  }
  return problems;
}
