import { expectInvalid } from '../../test/domain-errors';
import { codeProblem } from './codes';
import {
  lowThreshold,
  normaliseRewardCodes,
  notPooled,
  poolLevel,
  validateVerificationId,
} from './reward-codes';

describe('codeProblem', () => {
  it.each<[string, string | undefined]>([
    ['SAVE-10', undefined],
    ['ü€-ß', undefined],
    ['c'.repeat(128), undefined],
    // Characters, not UTF-16 units: 128 emoji are 256 units.
    ['😀'.repeat(128), undefined],
    ['😀'.repeat(129), 'must be at most 128 characters'],
    ['', 'must not be empty'],
    ['c'.repeat(129), 'must be at most 128 characters'],
    ['A B', 'must not contain whitespace or control characters'],
    ['A\u00a0B', 'must not contain whitespace or control characters'],
    ['A\u0007B', 'must not contain whitespace or control characters'],
    ['A\u0085B', 'must not contain whitespace or control characters'],
  ])('%j -> %j', (code, problem) => {
    expect(codeProblem(code)).toBe(problem);
  });
});

describe('normaliseRewardCodes', () => {
  it('trims and drops duplicates inside the request, keeping the order', () => {
    expect(normaliseRewardCodes([' B ', 'A', 'B', 'C\t'])).toEqual(['B', 'A', 'C']);
  });

  it('accepts 10000 codes', () => {
    expect(normaliseRewardCodes(Array.from({ length: 10_000 }, (_, i) => `C${i}`))).toHaveLength(10_000);
  });

  it.each<[string, string[], string]>([
    ['none', [], 'codes: at least one code is required'],
    [
      '10001 codes',
      Array.from({ length: 10_001 }, (_, i) => `C${i}`),
      'codes: at most 10000 codes per call (got 10001)',
    ],
    ['a blank code', ['A', ' '], 'codes[1]: must not be empty'],
    [
      'two bad codes',
      ['A B', 'C', 'x'.repeat(129)],
      'codes[0]: must not contain whitespace or control characters; codes[2]: must be at most 128 characters',
    ],
  ])('refuses %s', (_case, codes, message) => {
    expectInvalid(() => normaliseRewardCodes(codes), message);
  });
});

describe('validateVerificationId', () => {
  it.each(['v', 'v'.repeat(64), '0123456789abcdef01234567'])('accepts %j', (id) => {
    expect(validateVerificationId(id)).toBe(id);
  });

  it.each([
    ['', 'verificationId: is required'],
    ['v'.repeat(65), 'verificationId: must be at most 64 characters'],
    ['v\n', 'verificationId: must not contain control characters'],
  ])('refuses %j', (id, message) => {
    expectInvalid(() => validateVerificationId(id), message);
  });
});

describe('pool level', () => {
  it.each<[number, number]>([
    [0, 1], // an empty pool (never filled) is low
    [1, 1],
    [5, 1],
    [10, 1],
    [11, 2], // 10% rounded up
    [100, 10],
    [101, 11],
    [490, 49],
    [500, 50],
    [501, 50], // 50 at most
    [1_000_000, 50],
  ])('a pool of %i codes is low under %i unused codes', (total, threshold) => {
    expect(lowThreshold(total)).toBe(threshold);
    expect(poolLevel(total, threshold - 1).low).toBe(true);
    if (threshold <= total) expect(poolLevel(total, threshold).low).toBe(false);
  });

  it('is low below 10% of the pool, so exactly 10% left is not low', () => {
    expect(poolLevel(100, 9).low).toBe(true);
    expect(poolLevel(100, 10).low).toBe(false);
    expect(poolLevel(15, 1).low).toBe(true); // 1 < 1.5
    expect(poolLevel(15, 2).low).toBe(false); // 2 >= 1.5
  });

  it('is low below 50 codes left in a large pool, whatever the share', () => {
    expect(poolLevel(10_000, 49).low).toBe(true);
    expect(poolLevel(10_000, 50).low).toBe(false);
  });

  it('counts the claimed codes and reports the threshold', () => {
    expect(poolLevel(200, 150)).toEqual({
      pooled: true,
      total: 200,
      unused: 150,
      claimed: 50,
      low: false,
      lowThreshold: 20,
    });
    expect(poolLevel(0, 0)).toEqual({
      pooled: true,
      total: 0,
      unused: 0,
      claimed: 0,
      low: true,
      lowThreshold: 1,
    });
  });

  it('is never low, and all 0, for a program without a pool', () => {
    expect(notPooled()).toEqual({
      pooled: false,
      total: 0,
      unused: 0,
      claimed: 0,
      low: false,
      lowThreshold: 0,
    });
  });
});
