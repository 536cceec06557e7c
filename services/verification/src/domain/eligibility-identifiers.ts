import { isCalendarDate } from './calendar-date';

/**
 * The identifiers an eligibility list row and a submission are compared by, normalised so that the spellings
 * a customer's export and a person's form differ in give one value. The app keys each value with an HMAC
 * (app/eligibility-list-keys.ts); here only the folding and the row's checks, testable without secrets.
 */

/** Stored as eligibility_list_rows.kind: never renumber. */
export const IdentifierKind = { email: 1, memberId: 2, employeeId: 3, nameBirthDate: 4 } as const;
export type IdentifierKind = (typeof IdentifierKind)[keyof typeof IdentifierKind];

export interface Identifier {
  kind: IdentifierKind;
  /** The normalised value: what is keyed, never stored. */
  value: string;
}

/** The fields a row (and a subject) may carry; empty or absent = not given. */
export interface IdentifierFields {
  email?: string | undefined;
  memberId?: string | undefined;
  employeeId?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  birthDate?: string | undefined;
}

const MAX_LENGTH = 256;
// Control characters never belong in an identifier; a row carrying one is a broken export.
const CONTROL = /[\u0000-\u001f\u007f]/u;

/** Full case folding as far as JavaScript has it: upper then lower folds ß to ss and ﬁ to fi. */
function caseFold(value: string): string {
  return value.toUpperCase().toLowerCase();
}

/** Email: trimmed, NFC, lower case (mailbox providers treat addresses case-insensitively in practice). */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

/** Member or employee id: trimmed, NFC, case-folded (M-0042 and m-0042 are one id). */
export function normalizeId(id: string): string {
  return caseFold(id.trim().normalize('NFC'));
}

/** A name: trimmed, runs of white space as one space, case-folded, NFC. Accents are kept: José is not Jose. */
export function normalizeName(name: string): string {
  return caseFold(name.normalize('NFC').trim().replace(/\s+/gu, ' ')).normalize('NFC');
}

/** Name + birth date as one value: JSON keeps the parts apart whatever characters the names hold. */
export function nameBirthDateValue(firstName: string, lastName: string, birthDate: string): string {
  return JSON.stringify([normalizeName(firstName), normalizeName(lastName), birthDate.trim()]);
}

const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * The identifiers of a row, or why it is refused: at least one identifier; first name, last name and birth
 * date only together; an email with an @; a real YYYY-MM-DD date; no value over 256 characters or with a
 * control character.
 */
export function rowIdentifiers(row: IdentifierFields): { identifiers: Identifier[] } | { refusal: string } {
  for (const [field, value] of Object.entries(row) as [string, string | undefined][]) {
    if (value === undefined) continue;
    if (value.length > MAX_LENGTH) return { refusal: `${field} is longer than ${MAX_LENGTH} characters` };
    if (CONTROL.test(value)) return { refusal: `${field} contains a control character` };
  }
  const identifiers: Identifier[] = [];
  if (given(row.email)) {
    const email = normalizeEmail(row.email);
    if (!/^[^\s@]+@[^\s@]+$/u.test(email)) return { refusal: 'email is not an email address' };
    identifiers.push({ kind: IdentifierKind.email, value: email });
  }
  if (given(row.memberId))
    identifiers.push({ kind: IdentifierKind.memberId, value: normalizeId(row.memberId) });
  if (given(row.employeeId))
    identifiers.push({ kind: IdentifierKind.employeeId, value: normalizeId(row.employeeId) });
  const nameParts = [row.firstName, row.lastName, row.birthDate].filter(given).length;
  if (nameParts === 3) {
    if (!isCalendarDate(row.birthDate!.trim())) return { refusal: 'birthDate is not a YYYY-MM-DD date' };
    identifiers.push({
      kind: IdentifierKind.nameBirthDate,
      value: nameBirthDateValue(row.firstName!, row.lastName!, row.birthDate!),
    });
  } else if (nameParts > 0) {
    return { refusal: 'firstName, lastName and birthDate must be given together' };
  }
  if (identifiers.length === 0)
    return {
      refusal: 'no identifier: give an email, memberId, employeeId or firstName, lastName and birthDate',
    };
  return { identifiers };
}

/**
 * The identifiers a submission can be found by: whatever of them the subject has, without the row's
 * refusals (the subject was validated by its own rules; a malformed part is simply not looked up).
 */
export function subjectIdentifiers(subject: IdentifierFields): Identifier[] {
  const identifiers: Identifier[] = [];
  if (given(subject.email))
    identifiers.push({ kind: IdentifierKind.email, value: normalizeEmail(subject.email) });
  if (given(subject.memberId))
    identifiers.push({ kind: IdentifierKind.memberId, value: normalizeId(subject.memberId) });
  if (given(subject.employeeId))
    identifiers.push({ kind: IdentifierKind.employeeId, value: normalizeId(subject.employeeId) });
  if (given(subject.firstName) && given(subject.lastName) && given(subject.birthDate))
    identifiers.push({
      kind: IdentifierKind.nameBirthDate,
      value: nameBirthDateValue(subject.firstName, subject.lastName, subject.birthDate),
    });
  return identifiers;
}
