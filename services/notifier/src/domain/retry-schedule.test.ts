import {
  DEFAULT_RETRY_SCHEDULE,
  MAX_RETRY_AFTER_MS,
  nextAttemptDelayMs,
  parseDuration,
  parseRetrySchedule,
} from './retry-schedule';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['0s', 0],
    ['250ms', 250],
    ['5s', 5 * S],
    ['5m', 5 * M],
    ['2h', 2 * H],
    ['5d', 5 * D],
    [' 30s ', 30 * S],
  ])('reads %j', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '5', '-5s', '1.5h', '5 s', '5x', 's', '5S', '1w', 'ten minutes', '99999999999999999999d'])(
    'refuses %j',
    (text) => {
      expect(() => parseDuration(text)).toThrow(`"${text}" is not a duration`);
    },
  );
});

describe('parseRetrySchedule', () => {
  it('reads the default schedule: 10 attempts over about two and a half days', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    expect(schedule).toEqual([0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H, 14 * H, 20 * H]);
    const total = schedule.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(2.5 * D);
    expect(total).toBeLessThan(3 * D);
  });

  it('tolerates white space around entries', () => {
    expect(parseRetrySchedule(' 0 , 1m,2h ')).toEqual([0, M, 2 * H]);
  });

  it('accepts a single entry and exactly 7d', () => {
    expect(parseRetrySchedule('0')).toEqual([0]);
    expect(parseRetrySchedule('7d')).toEqual([7 * D]);
  });

  it.each([
    ['', 'the retry schedule is empty'],
    ['  ', 'the retry schedule is empty'],
    ['0,5x', '"5x" is not a duration'],
    ['0,,5m', '"" is not a duration'],
    ['0,5m,', '"" is not a duration'],
    ['0,10', '"10" is not a duration'],
    ['0,8d', 'retry schedule entry "8d" is longer than 7d'],
    ['0, 169h', 'retry schedule entry "169h" is longer than 7d'],
  ])('refuses %j', (text, message) => {
    expect(() => parseRetrySchedule(text)).toThrow(message);
  });
});

describe('nextAttemptDelayMs', () => {
  const schedule = [0, 5 * S, 5 * M, 2 * H];
  const middle = () => 0.5;
  const lowest = () => 0;
  const highest = () => 0.999999;

  it('takes the delay of the next attempt', () => {
    expect(nextAttemptDelayMs(schedule, 0, undefined, middle)).toBe(0);
    expect(nextAttemptDelayMs(schedule, 1, undefined, middle)).toBe(5 * S);
    expect(nextAttemptDelayMs(schedule, 3, undefined, middle)).toBe(2 * H);
  });

  it('gives up once the schedule is used', () => {
    expect(nextAttemptDelayMs(schedule, 4)).toBeUndefined();
    expect(nextAttemptDelayMs(schedule, 10, 5 * S)).toBeUndefined();
    expect(nextAttemptDelayMs([], 0)).toBeUndefined();
  });

  it('jitters by up to 20% either way, but never a 0', () => {
    expect(nextAttemptDelayMs(schedule, 2, undefined, lowest)).toBe(4 * M);
    expect(nextAttemptDelayMs(schedule, 2, undefined, highest)).toBe(6 * M);
    expect(nextAttemptDelayMs(schedule, 0, undefined, lowest)).toBe(0);
    expect(nextAttemptDelayMs(schedule, 0, undefined, highest)).toBe(0);
    for (let i = 0; i < 200; i++) {
      const delay = nextAttemptDelayMs(schedule, 3) ?? -1;
      expect(delay).toBeGreaterThanOrEqual(0.8 * 2 * H);
      expect(delay).toBeLessThanOrEqual(1.2 * 2 * H);
    }
  });

  it('waits for Retry-After when it is longer than the schedule', () => {
    expect(nextAttemptDelayMs(schedule, 1, 60 * S, middle)).toBe(60 * S);
    expect(nextAttemptDelayMs(schedule, 0, 7 * S, middle)).toBe(7 * S);
  });

  it('keeps the schedule when Retry-After is shorter', () => {
    expect(nextAttemptDelayMs(schedule, 2, 7 * S, middle)).toBe(5 * M);
    expect(nextAttemptDelayMs(schedule, 2, 0, middle)).toBe(5 * M);
    expect(nextAttemptDelayMs(schedule, 2, -5 * S, middle)).toBe(5 * M);
  });

  it('caps Retry-After at a day', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(D);
    expect(nextAttemptDelayMs(schedule, 1, 30 * D, middle)).toBe(D);
    expect(nextAttemptDelayMs(schedule, 1, Infinity, middle)).toBe(D);
    expect(nextAttemptDelayMs([0, 3 * D], 1, 30 * D, middle)).toBe(3 * D);
  });

  it('ignores a Retry-After that is not a number', () => {
    expect(nextAttemptDelayMs(schedule, 1, NaN, middle)).toBe(5 * S);
  });

  it.each([-1, 1.5, NaN])('refuses attemptsMade %p', (attemptsMade) => {
    expect(() => nextAttemptDelayMs(schedule, attemptsMade)).toThrow(RangeError);
  });
});
