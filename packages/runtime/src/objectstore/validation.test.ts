import { isDomainError } from '../errors/domain-error';
import {
  assertPresignExpiry,
  assertValidKey,
  keyProblem,
  MAX_KEY_LENGTH,
  normalizeContentType,
} from './validation';

describe('object key validation', () => {
  it.each([
    'a',
    'documents/2024/01/abc-123_DEF.pdf',
    'A.B.C',
    '...', // only exactly "." and ".." mean something to a filesystem
    '.hidden/file',
    'x'.repeat(MAX_KEY_LENGTH),
  ])('accepts %j', (key) => {
    expect(keyProblem(key)).toBeUndefined();
  });

  it.each([
    ['', /non-empty/],
    ['x'.repeat(MAX_KEY_LENGTH + 1), /at most/],
    ['/etc/passwd', /relative/],
    ['../secret', /\.\. segments/],
    ['a/../../b', /\.\. segments/],
    ['a/./b', /\. or \.\. segments/],
    ['..', /\.\. segments/],
    ['a//b', /empty segments/],
    ['a/', /empty segments/],
    ['a\\..\\b', /may contain only/],
    ['C:/windows', /may contain only/],
    ['with space', /may contain only/],
    ['percent%2F', /may contain only/],
    ['new\nline', /may contain only/],
    ['nul\0byte', /may contain only/],
    ['unicodé', /may contain only/],
    ['query?x=1', /may contain only/],
  ])('rejects %j', (key, why) => {
    expect(keyProblem(key)).toMatch(why);
  });

  it.each([undefined, null, 42, {}])('rejects the non-string %j', (key) => {
    expect(keyProblem(key)).toMatch(/non-empty string/);
  });

  it('throws an invalidArgument domain error that does not echo the key', () => {
    let thrown: unknown;
    try {
      assertValidKey('../leak-me');
    } catch (err) {
      thrown = err;
    }
    expect(isDomainError(thrown) && thrown.kind).toBe('invalidArgument');
    expect((thrown as Error).message).not.toContain('leak-me');
  });
});

describe('presign expiry', () => {
  it.each([1, 60, 604800])('accepts %d seconds', (seconds) => {
    expect(() => assertPresignExpiry(seconds)).not.toThrow();
  });
  it.each([0, -1, 1.5, 604801, Number.NaN])('rejects %d seconds', (seconds) => {
    expect(() => assertPresignExpiry(seconds)).toThrow(/expiry/);
  });
});

describe('content type', () => {
  it.each([
    [undefined, 'application/octet-stream'],
    ['', 'application/octet-stream'],
    ['  image/png ', 'image/png'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
    [
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    ['multipart/form-data; boundary="a b"', 'multipart/form-data; boundary="a b"'],
  ])('normalises %j to %j', (given, stored) => {
    expect(normalizeContentType(given)).toBe(stored);
  });

  it.each(['image', 'text/html\r\nSet-Cookie: a=b', 'a/b; c', `a/${'b'.repeat(300)}`, 'ima ge/png'])(
    'rejects %j',
    (given) => {
      expect(() => normalizeContentType(given)).toThrow(/content type/);
    },
  );
});
