/**
 * Dates of the API are calendar dates (`YYYY-MM-DD`) with no time zone: a birth date is a day, not an
 * instant. They are handled as strings and numbers, never as Date objects, so no local zone can shift one by
 * a day. Once validated, two such strings compare correctly with < and >.
 */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The date, or undefined when the text is not `YYYY-MM-DD` or names a day that does not exist (02-30). */
export function parseCalendarDate(value: string): CalendarDate | undefined {
  const match = SHAPE.exec(value);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

export function isCalendarDate(value: string): boolean {
  return parseCalendarDate(value) !== undefined;
}

/** Today's calendar date in UTC, the zone the service decides in (one answer for every replica). */
export function utcToday(now: Date): string {
  return now.toISOString().slice(0, 10);
}
