import { publicRandomBytes } from './public-random';

describe('publicRandomBytes', () => {
  it('draws fresh bytes each time, across refills of the pool', () => {
    const drawn = Array.from({ length: 2000 }, () => publicRandomBytes(12).toString('hex'));
    expect(new Set(drawn).size).toBe(2000);
    for (const value of drawn) expect(value).toMatch(/^[0-9a-f]{24}$/);
  });

  it('hands out a copy: later draws do not change a value drawn before', () => {
    const a = publicRandomBytes(16);
    const copy = Buffer.from(a);
    for (let i = 0; i < 1000; i++) publicRandomBytes(16);
    expect(a.equals(copy)).toBe(true);
  });

  it('refuses sizes it does not serve', () => {
    for (const size of [0, -1, 65, 1.5, Number.NaN])
      expect(() => publicRandomBytes(size)).toThrow(RangeError);
  });
});
