import type { ErrorId } from '@eligo/vocabulary';
import { parseCalendarDate, type CalendarDate } from './calendar-date';

function parseOrThrow(value: string, name: string): CalendarDate {
  const date = parseCalendarDate(value);
  // Callers validate dates first; reaching here with a bad one is a bug, not bad user input.
  if (date === undefined) throw new RangeError(`${name} is not a YYYY-MM-DD calendar date`);
  return date;
}

/**
 * Age in whole years on `today`: a year is added on the birthday. Someone born on 29 February has a
 * birthday on 1 March in other years (the day after 28 February), so a minimum age is never reached a day
 * early (the cautious one of the two conventions in use). Negative for a future birth date. Throws
 * RangeError for text that is not a calendar date.
 */
export function ageOn(birthDate: string, today: string): number {
  const birth = parseOrThrow(birthDate, 'birthDate');
  const on = parseOrThrow(today, 'today');
  // Comparing (month, day) handles 29 February without a special case: 02-28 < 02-29 < 03-01.
  const beforeBirthday = on.month < birth.month || (on.month === birth.month && on.day < birth.day);
  return on.year - birth.year - (beforeBirthday ? 1 : 0);
}

export type AgeRefusal = Extract<ErrorId, 'underagePerson' | 'outsideAgePerson' | 'futureBirthDate'>;

/**
 * Whether an age or senior program accepts a person born on `birthDate`: undefined when it does. Bounds are
 * inclusive (minAge 18 accepts an 18-year-old); an unset bound (undefined or null, as programs store it) does
 * not restrict.
 */
export function ageDecision(
  birthDate: string,
  today: string,
  minAge?: number | null,
  maxAge?: number | null,
): AgeRefusal | undefined {
  const age = ageOn(birthDate, today);
  if (birthDate > today) return 'futureBirthDate';
  if (minAge !== undefined && minAge !== null && age < minAge) return 'underagePerson';
  if (maxAge !== undefined && maxAge !== null && age > maxAge) return 'outsideAgePerson';
  return undefined;
}
