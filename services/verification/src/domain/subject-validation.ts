import type { ErrorId } from '@eligo/programs';
import isEmail from 'validator/lib/isEmail';
import isISO31661Alpha2 from 'validator/lib/isISO31661Alpha2';
import isMobilePhone from 'validator/lib/isMobilePhone';
import isPostalCode, {
  locales as POSTAL_CODE_LOCALES,
  type PostalCodeLocale,
} from 'validator/lib/isPostalCode';
import { parseCalendarDate } from './calendar-date';
import { statusAllowedForProgram } from './statuses';
import { segmentOfSubjectType, type SubjectType } from './steps';
import { normalizeSubject, type Subject, type SubjectInput } from './subject';
import { hasKey } from './subject-fields';
import { CONTROL_CHARACTERS, charLength, isPlainText } from './text';
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

/**
 * The recoverable problems of a personal-info body of the given type: the errorIds a person can fix by
 * correcting the form, in the order of the form's fields, each at most once. Empty means valid. Only the
 * fields the type takes are judged (the gateway has already refused keys outside the type). The subject is
 * judged in its normalised form, the form that is stored, so a caller may pass it raw or normalised.
 */
export function validateSubject(type: SubjectType, input: SubjectInput, ctx: ValidationContext): ErrorId[] {
  const subject = normalizeSubject(input);
  const has = (key: Parameters<typeof hasKey>[1]) => hasKey(type, key);
  const country = (has('country') && subject.country) || ctx.country?.toUpperCase() || '';
  const found: (ErrorId | undefined)[] = [
    invalidName(subject.firstName) ? 'invalidFirstName' : undefined,
    invalidName(subject.lastName) ? 'invalidLastName' : undefined,
    has('birthDate') ? birthDateProblem(subject.birthDate, ctx.today) : undefined,
    has('dischargeDate') ? dischargeDateProblem(subject, ctx.today) : undefined,
    invalidEmail(subject.email) ? 'invalidEmail' : undefined,
    has('organization') && !hasOrganization(subject) ? 'noOrganization' : undefined,
    has('postalCode') && !validPostalCode(subject.postalCode, country) ? 'invalidPostalCode' : undefined,
    has('phoneNumber') && subject.phoneNumber !== '' && !validPhoneNumber(subject.phoneNumber)
      ? 'invalidPhoneNumber'
      : undefined,
    has('country') && subject.country !== '' && !isISO31661Alpha2(subject.country)
      ? 'invalidRequest'
      : undefined,
    has('address1') && !isPlainText(subject.address1, MAX_ADDRESS_LENGTH) ? 'invalidAddress1' : undefined,
    has('city') && !isPlainText(subject.city, MAX_ADDRESS_LENGTH) ? 'invalidCity' : undefined,
    has('state') && !validState(subject.state, country) ? 'invalidState' : undefined,
    has('status') || has('statuses') ? statusProblem(type, subject, ctx.programSubSegments ?? []) : undefined,
    has('driverLicenseNumber') && !DRIVER_LICENSE_NUMBER.test(subject.driverLicenseNumber)
      ? 'invalidRequest'
      : undefined,
    has('ebtCardNumber') && subject.ebtCardNumber !== '' && !validEbtCardNumber(subject.ebtCardNumber)
      ? 'invalidRequest'
      : undefined,
  ];
  // Several fields map to invalidRequest; the form shows each errorId's message once.
  return [...new Set(found.filter((id): id is ErrorId => id !== undefined))];
}

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
 * person, hence invalidRequest.
 */
function statusProblem(
  type: SubjectType,
  subject: Subject,
  programSubSegments: readonly string[],
): ErrorId | undefined {
  const segment = segmentOfSubjectType(type);
  const allowed = (status: string) => statusAllowedForProgram(segment, programSubSegments, status);
  if (hasKey(type, 'status')) return allowed(subject.status) ? undefined : 'invalidRequest';
  return subject.statuses.every(allowed) ? undefined : 'invalidRequest';
}

function validEbtCardNumber(value: string): boolean {
  return EBT_CARD_NUMBER.test(value.replace(/[\s-]/g, ''));
}
