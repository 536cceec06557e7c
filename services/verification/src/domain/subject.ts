/**
 * A personal-info body as the domain reads it: the union of every subject type's fields, shaped like the
 * proto `Subject` so a decoded request passes in as it is. An empty string (and an unset organization, a zero
 * universityId, an empty list) means "not given"; which fields a type takes is in subject-fields.ts.
 */
export interface OrganizationRef {
  id: number;
  name: string;
}

export interface Subject {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD. */
  birthDate: string;
  email: string;
  organization?: OrganizationRef | undefined;
  metadata: Record<string, string>;
  postalCode: string;
  phoneNumber: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** YYYY-MM-DD (InactiveMilitary). */
  dischargeDate: string;
  /** One status (FirstResponder, MedicalProfessional). */
  status: string;
  /** Several statuses (LicensedProfessional, Mover, LowIncome). */
  statuses: string[];
  address1: string;
  city: string;
  state: string;
  driverLicenseNumber: string;
  ebtCardNumber: string;
  /** The student form's alternative to organization.id; 0 = not given. */
  universityId: number;
  /** BCP 47 tag: the verification's locale from this submission on (not taken by Student). */
  locale: string;
  /** The person's identifier in the client's own systems, kept as given (not taken by Student). */
  externalUserId: string;
  /** The person's member number with the customer (Member only), which an eligibility list matches. */
  memberId: string;
  /** The person's employee number with the employer (Employee only), which an eligibility list matches. */
  employeeId: string;
  /** The person's address at the organization (forms naming one, not Student): the email loop's, if set. */
  organizationEmail: string;
}

/**
 * A body as it arrives: any field may be absent (a token's JSON payload, a merge with stored data). Missing
 * and empty are the same thing to every rule; normalizeSubject makes the absent ones empty.
 */
export type SubjectInput = Partial<Subject>;

/** A subject with nothing given; tests and mappers spread the fields they have over it. */
export function emptySubject(): Subject {
  return {
    firstName: '',
    lastName: '',
    birthDate: '',
    email: '',
    organization: undefined,
    metadata: {},
    postalCode: '',
    phoneNumber: '',
    country: '',
    dischargeDate: '',
    status: '',
    statuses: [],
    address1: '',
    city: '',
    state: '',
    driverLicenseNumber: '',
    ebtCardNumber: '',
    universityId: 0,
    locale: '',
    externalUserId: '',
    memberId: '',
    employeeId: '',
    organizationEmail: '',
  };
}

/**
 * The form the subject is validated, matched and stored in, with every field present. Form fields arrive
 * with stray spaces that no person means. Email is lower-cased because mailbox providers treat addresses
 * case-insensitively in practice and the same person must be one person for limits; two-letter state and
 * country codes are upper-cased because their lists are (a region name such as "Ontario" keeps its case).
 * Metadata and externalUserId are the integrator's own data and are kept byte for byte; the locale is stored
 * in its canonical form once valid (see canonicalLocale).
 */
export function normalizeSubject(input: SubjectInput): Subject {
  const s = withDefaults(input);
  return {
    firstName: s.firstName.trim(),
    lastName: s.lastName.trim(),
    birthDate: s.birthDate.trim(),
    email: s.email.trim().toLowerCase(),
    organization: s.organization && { id: s.organization.id || 0, name: (s.organization.name ?? '').trim() },
    metadata: { ...s.metadata },
    postalCode: s.postalCode.trim(),
    phoneNumber: s.phoneNumber.trim(),
    country: normalizeCode(s.country),
    dischargeDate: s.dischargeDate.trim(),
    status: s.status.trim(),
    statuses: s.statuses.map((status) => status.trim()),
    address1: s.address1.trim(),
    city: s.city.trim(),
    state: normalizeCode(s.state),
    driverLicenseNumber: s.driverLicenseNumber.trim(),
    ebtCardNumber: s.ebtCardNumber.trim(),
    universityId: s.universityId || 0,
    locale: s.locale,
    externalUserId: s.externalUserId,
    memberId: s.memberId.trim(),
    employeeId: s.employeeId.trim(),
    organizationEmail: s.organizationEmail.trim().toLowerCase(),
  };
}

/**
 * The input over the empty defaults; explicitly undefined or null fields (a JSON merge can produce them) must
 * not hide them. A loop, not entries/filter/fromEntries: every submission runs this (0.3% of the all-in-one's
 * CPU in a profile of the verification flow, for three intermediate arrays).
 */
function withDefaults(input: SubjectInput): Subject {
  const subject = emptySubject() as unknown as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) subject[key] = value;
  }
  return subject as unknown as Subject;
}

function normalizeCode(value: string): string {
  const trimmed = value.trim();
  return /^[a-z]{2}$/i.test(trimmed) ? trimmed.toUpperCase() : trimmed;
}
