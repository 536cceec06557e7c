import { daysInMonth, isCalendarDate, isLeapYear, parseCalendarDate, utcToday } from './calendar-date';

describe('parseCalendarDate', () => {
  it.each([
    ['2000-01-31', { year: 2000, month: 1, day: 31 }],
    ['2024-02-29', { year: 2024, month: 2, day: 29 }],
    ['2000-02-29', { year: 2000, month: 2, day: 29 }],
    ['2023-02-29', undefined],
    ['1900-02-29', undefined],
    ['2023-04-31', undefined],
    ['2023-13-01', undefined],
    ['2023-00-10', undefined],
    ['2023-01-00', undefined],
    ['2023-1-05', undefined],
    ['20230105', undefined],
    ['2023-01-05T00:00:00Z', undefined],
    [' 2023-01-05', undefined],
    ['05/01/2023', undefined],
    ['', undefined],
  ])('%j -> %j', (value, expected) => {
    expect(parseCalendarDate(value)).toEqual(expected);
    expect(isCalendarDate(value)).toBe(expected !== undefined);
  });
});

describe('calendar', () => {
  it.each([
    [2024, true],
    [2023, false],
    [1900, false],
    [2000, true],
  ])('isLeapYear(%d) = %s', (year, leap) => {
    expect(isLeapYear(year)).toBe(leap);
  });

  it.each([
    [2023, 2, 28],
    [2024, 2, 29],
    [2023, 4, 30],
    [2023, 12, 31],
  ])('daysInMonth(%d, %d) = %d', (year, month, days) => {
    expect(daysInMonth(year, month)).toBe(days);
  });

  it.each([
    ['2024-03-01T23:59:59.999Z', '2024-03-01'],
    ['2024-03-01T00:00:00+02:00', '2024-02-29'],
  ])('utcToday(%s) = %s', (instant, day) => {
    expect(utcToday(new Date(instant))).toBe(day);
  });
});
