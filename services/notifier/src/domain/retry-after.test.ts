import { parseRetryAfter } from './retry-after';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it.each([
    ['7', 7000],
    [' 120 ', 120_000],
    ['0', 0],
    ['-5', 0],
    ['Sun, 01 Mar 2026 12:00:30 GMT', 30_000],
    ['Sunday, 01-Mar-26 12:01:00 GMT', 60_000],
    ['Sun Mar  1 12:00:10 2026', 10_000],
    ['Sun, 01 Mar 2026 11:00:00 GMT', 0],
  ])('reads %j', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([undefined, '', 'soon', '1.5', '7s', '2026-03-01', '1 2', 'Sun, 99 Foo 2026 12:00:30 GMT'])(
    'ignores %j',
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    },
  );
});
