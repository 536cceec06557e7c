import { charLength, isPlainText } from './text';

describe('text', () => {
  it.each([
    ['abc', 3],
    ['José', 4],
    ['𠮷野', 2],
    ['', 0],
  ])('charLength(%j) = %d', (value, length) => {
    expect(charLength(value)).toBe(length);
  });

  it.each([
    ['1 Main St', 10, true],
    ['', 10, false],
    ['12345678901', 10, false],
    ['𠮷'.repeat(10), 10, true],
    ['line\nbreak', 20, false],
    ['tab\there', 20, false],
    ['sep\u2028arator', 20, false],
  ])('isPlainText(%j, %d) = %s', (value, max, expected) => {
    expect(isPlainText(value, max)).toBe(expected);
  });
});
