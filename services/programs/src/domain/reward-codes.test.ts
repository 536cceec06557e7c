import { expectInvalid } from '../../test/domain-errors';
import { codeProblem } from './codes';
import { normaliseRewardCodes, validateVerificationId } from './reward-codes';

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
