import { ageDecision, ageOn } from './age';

describe('ageOn', () => {
  it.each([
    ['2000-06-15', '2018-06-14', 17],
    ['2000-06-15', '2018-06-15', 18],
    ['2000-06-15', '2018-12-31', 18],
    ['2000-12-31', '2001-01-01', 0],
    ['2000-06-15', '2000-06-15', 0],
    ['2000-06-16', '2000-06-15', -1],
    // Born on 29 February: the birthday of a common year is 1 March.
    ['2004-02-29', '2022-02-28', 17],
    ['2004-02-29', '2022-03-01', 18],
    ['2004-02-29', '2024-02-28', 19],
    ['2004-02-29', '2024-02-29', 20],
  ])('born %s, on %s: %d', (birthDate, today, age) => {
    expect(ageOn(birthDate, today)).toBe(age);
  });

  it.each([
    ['2023-02-29', '2024-01-01'],
    ['2000-01-01', 'today'],
  ])('throws on a date that is not one (%s, %s)', (birthDate, today) => {
    expect(() => ageOn(birthDate, today)).toThrow(RangeError);
  });
});

describe('ageDecision', () => {
  const today = '2024-05-10';
  it.each<[string, number | null | undefined, number | null | undefined, string | undefined]>([
    ['2006-05-10', 18, undefined, undefined],
    ['2006-05-11', 18, undefined, 'underagePerson'],
    ['1959-05-10', 65, undefined, undefined],
    ['1959-05-11', 65, undefined, 'underagePerson'],
    ['1990-01-01', 18, 25, 'outsideAgePerson'],
    ['1998-05-11', 18, 25, undefined],
    ['1998-05-10', 18, 25, 'outsideAgePerson'],
    ['1930-01-01', undefined, undefined, undefined],
    ['1930-01-01', null, null, undefined],
    ['2010-01-01', null, 30, undefined],
    ['2024-05-11', 0, undefined, 'futureBirthDate'],
    ['2025-01-01', undefined, undefined, 'futureBirthDate'],
    ['2024-05-10', 0, undefined, undefined],
  ])('born %s, min %s, max %s -> %s', (birthDate, minAge, maxAge, expected) => {
    expect(ageDecision(birthDate, today, minAge, maxAge)).toBe(expected);
  });

  it('throws on a date that is not one', () => {
    expect(() => ageDecision('2024-13-01', today, 18)).toThrow(RangeError);
  });
});
