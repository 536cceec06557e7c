import { backoffDelay, sleep } from './backoff';

const low = () => 0;
const high = () => 1;

describe('backoffDelay', () => {
  it.each([
    [1, 50, 100],
    [2, 50, 200],
    [3, 50, 400],
    [4, 50, 400],
    [1000, 50, 400],
  ])('full jitter: failure %i waits between %i and %i ms', (failures, min, max) => {
    const options = { initialMs: 100, maxMs: 400 };
    expect(backoffDelay(failures, options, low)).toBe(min);
    expect(backoffDelay(failures, options, high)).toBe(max);
  });

  it('defaults to 100 ms doubling up to 10 s, full jitter', () => {
    expect(backoffDelay(1, {}, high)).toBe(100);
    expect(backoffDelay(1, {}, low)).toBe(50);
    expect(backoffDelay(20, {}, high)).toBe(10_000);
  });

  it.each([
    [1, 50, 100],
    [2, 150, 300],
    [3, 250, 500],
  ])('upper-half jitter: failure %i waits between %i and %i whole ms', (failures, min, max) => {
    const options = { initialMs: 100, maxMs: 500, multiplier: 3, jitter: 'upper-half' } as const;
    expect(backoffDelay(failures, options, low)).toBe(min);
    expect(backoffDelay(failures, options, high)).toBe(max);
    expect(Number.isInteger(backoffDelay(failures, { ...options, initialMs: 33 }, () => 0.37))).toBe(true);
  });
});

describe('sleep', () => {
  it('returns at once when the signal aborts', async () => {
    const stop = new AbortController();
    const started = Date.now();
    const slept = sleep(60_000, stop.signal);
    stop.abort();
    await slept;
    expect(Date.now() - started).toBeLessThan(1000);
    await sleep(60_000, stop.signal);
  });
});
