import {
  canonicalLocale,
  CONTROL_CHARACTERS,
  charLength,
  EXTERNAL_USER_ID_RULE,
  hasKey,
  isOptionalSubjectKey,
  isPlainText,
  LOCALE_RULE,
  validExternalUserId,
  type ErrorId,
  type SubjectType,
} from '@eligo/vocabulary';
import isEmail from 'validator/lib/isEmail';
import isISO31661Alpha2 from 'validator/lib/isISO31661Alpha2';
import isMobilePhone from 'validator/lib/isMobilePhone';
import isPostalCode, {
  locales as POSTAL_CODE_LOCALES,
  type PostalCodeLocale,
} from 'validator/lib/isPostalCode';
import { parseCalendarDate } from './calendar-date';
import { statusAllowedForProgram, statusRefusalMessage } from './statuses';
import { segmentOfSubjectType } from './steps';
import { normalizeSubject, type Subject, type SubjectInput } from './subject';
import { isUsStateCode, US_ADDRESS_COUNTRIES } from './us-states';

export interface ValidationContext {
  /** Today in UTC, YYYY-MM-DD: the day birth and discharge dates may not pass. */
  today: string;
  /** ISO 3166-1 alpha-2 country of the request, for bodies that name none (postal code and state rules). */
  country?: string;
  /** The program's sub-segments: a status must lead to one of them (empty or unset: any of the segment). */
  programSubSegments?: readonly string[];
}

export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_ADDRESS_LENGTH = 200;
/** No one alive was born before it: an earlier date is a typo (1899 for 1989), not a person. */
export const EARLIEST_DATE = '1900-01-01';

const LETTER = /\p{L}/u;
const DRIVER_LICENSE_NUMBER = /^[A-Za-z0-9 -]{1,32}$/;
/** EBT cards are payment cards: a 16 to 19 digit number, often written in groups. */
const EBT_CARD_NUMBER = /^\d{16,19}$/;
/** Any number in international form: a landline passes too, unlike a mobile-only check. */
const E164 = /^\+[1-9]\d{7,14}$/;
const PHONE_SEPARATORS = /[\s().-]/g;

/** A problem of a field: its errorId, and for the integrator's mistakes (invalidRequest) what is wrong. */
interface Problem {
  errorId: ErrorId;
  message?: string;
}

/**
 * The recoverable problems of a personal-info body of the given type: the errorIds a person can fix by
 * correcting the form, in the order of the form's fields, each at most once. Empty means valid. Only the
 * fields the type takes are judged (the gateway has already refused keys outside the type). The subject is
 * judged in its normalised form, the form that is stored, so a caller may pass it raw or normalised.
 */
export function validateSubject(type: SubjectType, input: SubjectInput, ctx: ValidationContext): ErrorId[] {
  // Several fields map to invalidRequest; the form shows each errorId's message once.
  return [...new Set(problemsOf(type, input, ctx).map((p) => p.errorId))];
}

/**
 * What is wrong with the fields that validateSubject answers invalidRequest for (a status the program does
 * not accept, a malformed country, driver license or EBT card number), as one systemErrorMessage; undefined
 * when there is no such problem. Those values come from the integrator's form, so the message says what
 * the form must send instead.
 */
export function invalidRequestMessage(
  type: SubjectType,
  input: SubjectInput,
  ctx: ValidationContext,
): string | undefined {
  const messages = problemsOf(type, input, ctx).flatMap((p) => (p.message ? [p.message] : []));
  return messages.length > 0 ? messages.join('; ') : undefined;
}

function problemsOf(type: SubjectType, input: SubjectInput, ctx: ValidationContext): Problem[] {
  const subject = normalizeSubject(input);
  const has = (key: Parameters<typeof hasKey>[1]) => hasKey(type, key);
  /** A field the type takes, and either needs or was given: then it must be valid. */
  const judged = (key: Parameters<typeof hasKey>[1]) =>
    has(key) && (!isOptionalSubjectKey(type, key) || !isEmpty(subject[key as keyof Subject]));
  const country = (has('country') && subject.country) || ctx.country?.toUpperCase() || '';
  const problem = (errorId: ErrorId, message?: string): Problem => ({ errorId, message });
  const found: (Problem | undefined)[] = [
    invalidName(subject.firstName) ? problem('invalidFirstName') : undefined,
    invalidName(subject.lastName) ? problem('invalidLastName') : undefined,
    has('birthDate') ? asProblem(birthDateProblem(subject.birthDate, ctx.today)) : undefined,
    has('dischargeDate') ? asProblem(dischargeDateProblem(subject, ctx.today)) : undefined,
    invalidEmail(subject.email) ? problem('invalidEmail') : undefined,
    has('organization') && !hasOrganization(subject) ? problem('noOrganization') : undefined,
    judged('postalCode') && !validPostalCode(subject.postalCode, country)
      ? problem('invalidPostalCode')
      : undefined,
    judged('phoneNumber') && !validPhoneNumber(subject.phoneNumber)
      ? problem('invalidPhoneNumber')
      : undefined,
    judged('country') && !isISO31661Alpha2(subject.country)
      ? problem('invalidRequest', `country: '${subject.country}' is not an ISO 3166-1 alpha-2 code`)
      : undefined,
    has('address1') && !isPlainText(subject.address1, MAX_ADDRESS_LENGTH)
      ? problem('invalidAddress1')
      : undefined,
    has('city') && !isPlainText(subject.city, MAX_ADDRESS_LENGTH) ? problem('invalidCity') : undefined,
    has('state') && !validState(subject.state, country) ? problem('invalidState') : undefined,
    has('status') || has('statuses') ? statusProblem(type, subject, ctx.programSubSegments ?? []) : undefined,
    judged('driverLicenseNumber') && !DRIVER_LICENSE_NUMBER.test(subject.driverLicenseNumber)
      ? problem('invalidRequest', 'driverLicenseNumber: 1 to 32 letters, digits, spaces or hyphens')
      : undefined,
    judged('ebtCardNumber') && !validEbtCardNumber(subject.ebtCardNumber)
      ? problem('invalidRequest', 'ebtCardNumber: a card number of 16 to 19 digits')
      : undefined,
    // The client's fields: its own mistakes, never the person's.
    judged('locale') && canonicalLocale(subject.locale) === undefined
      ? problem('invalidRequest', `locale: must be ${LOCALE_RULE}`)
      : undefined,
    judged('externalUserId') && !validExternalUserId(subject.externalUserId)
      ? problem('invalidRequest', `externalUserId: must be ${EXTERNAL_USER_ID_RULE}`)
      : undefined,
    // The customer's numbers follow the client identifier's rule (an eligibility list's ids take the same).
    judged('memberId') && !validExternalUserId(subject.memberId)
      ? problem('invalidRequest', `memberId: must be ${EXTERNAL_USER_ID_RULE}`)
      : undefined,
    judged('employeeId') && !validExternalUserId(subject.employeeId)
      ? problem('invalidRequest', `employeeId: must be ${EXTERNAL_USER_ID_RULE}`)
      : undefined,
    // Optional: given, an address as email must be.
    judged('organizationEmail') && invalidEmail(subject.organizationEmail)
      ? problem('invalidRequest', 'organizationEmail: must be an email address')
      : undefined,
  ];
  return found.filter((p): p is Problem => p !== undefined);
}

const asProblem = (errorId: ErrorId | undefined): Problem | undefined =>
  errorId === undefined ? undefined : { errorId };

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** A name needs a letter: "-", "." or "123" are what people type to get past a form. */
function invalidName(name: string): boolean {
  return (
    name === '' || charLength(name) > MAX_NAME_LENGTH || !LETTER.test(name) || CONTROL_CHARACTERS.test(name)
  );
}

function birthDateProblem(birthDate: string, today: string): ErrorId | undefined {
  if (parseCalendarDate(birthDate) === undefined || birthDate < EARLIEST_DATE) return 'invalidBirthDate';
  if (birthDate > today) return 'futureBirthDate';
  return undefined;
}

/** A discharge is a past event; before the birth date it cannot be the person's own (when both are valid). */
function dischargeDateProblem(subject: Subject, today: string): ErrorId | undefined {
  const { dischargeDate, birthDate } = subject;
  if (
    parseCalendarDate(dischargeDate) === undefined ||
    dischargeDate < EARLIEST_DATE ||
    dischargeDate > today
  )
    return 'invalidDischargeDate';
  if (birthDateProblem(birthDate, today) === undefined && dischargeDate < birthDate)
    return 'dischargeDateBeforeBirthDate';
  return undefined;
}

function invalidEmail(email: string): boolean {
  return email === '' || email.length > MAX_EMAIL_LENGTH || !isEmail(email);
}

/**
 * Whether the person named an organization: by catalogue id, by name (matched against the catalogue
 * later), or by the student form's universityId. Whether the program accepts it is decided elsewhere.
 */
function hasOrganization(subject: Subject): boolean {
  const { organization, universityId } = subject;
  return (
    (organization !== undefined && (organization.id > 0 || organization.name !== '')) || universityId > 0
  );
}

/** Checked against the country's own format when validator knows it, else against any known format. */
function validPostalCode(postalCode: string, country: string): boolean {
  if (postalCode === '') return false;
  const locale = (POSTAL_CODE_LOCALES as string[]).includes(country) ? (country as PostalCodeLocale) : 'any';
  return isPostalCode(postalCode, locale);
}

function validPhoneNumber(phoneNumber: string): boolean {
  const compact = phoneNumber.replace(PHONE_SEPARATORS, '');
  return isMobilePhone(compact, 'any') || E164.test(compact);
}

/**
 * A US address has a USPS state code. When the request is known to come from elsewhere, the state is that
 * country's region, which has no list here: any one-line text passes.
 */
function validState(state: string, country: string): boolean {
  if (country === '' || US_ADDRESS_COUNTRIES.has(country)) return isUsStateCode(state);
  return isPlainText(state, MAX_ADDRESS_LENGTH);
}

/**
 * `status` (one, required) and `statuses` (several, optional) must be values of the type's segment that the
 * program accepts (the availableStatuses it offered). A bad value comes from the integrator's form, not the
 * person, hence invalidRequest, with a message that names the values the program accepts.
 */
function statusProblem(
  type: SubjectType,
  subject: Subject,
  programSubSegments: readonly string[],
): Problem | undefined {
  const segment = segmentOfSubjectType(type);
  const allowed = (status: string) => statusAllowedForProgram(segment, programSubSegments, status);
  const field = hasKey(type, 'status') ? 'status' : 'statuses';
  const refused = (field === 'status' ? [subject.status] : subject.statuses).find((s) => !allowed(s));
  if (refused === undefined) return undefined;
  return {
    errorId: 'invalidRequest',
    message: statusRefusalMessage(field, refused, segment, programSubSegments),
  };
}

function validEbtCardNumber(value: string): boolean {
  return EBT_CARD_NUMBER.test(value.replace(/[\s-]/g, ''));
}
