import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import { RestError } from '../errors';
import { isToken, uploadContentLength } from './doc-upload-limits';

describe('upload tokens', () => {
  it.each(['a', 'A-z_0', 'x'.repeat(128), 'k3Jf9_-abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'])(
    'accepts %s',
    (t) => {
      expect(isToken(t)).toBe(true);
    },
  );
  it.each(['', 'x'.repeat(129), 'a.b', 'a/b', 'a+b=', 'a b', 'é', undefined, 7])('refuses %p', (t) => {
    expect(isToken(t)).toBe(false);
  });
});

describe('uploadContentLength: the upload PUT is judged by its headers before any byte is read', () => {
  const failure = (headers: Record<string, string>) => {
    try {
      uploadContentLength(headers);
    } catch (err) {
      if (err instanceof RestError) return [err.status, err.shape, err.message];
    }
    throw new Error('expected a refusal');
  };

  it('answers the declared length, up to 10 MiB', () => {
    expect(uploadContentLength({ 'content-length': '1' })).toBe(1);
    expect(uploadContentLength({ 'content-length': '0' })).toBe(0);
    expect(uploadContentLength({ 'content-length': String(MAX_FILE_BYTES) })).toBe(10 * 1024 * 1024);
  });

  it('is 0 for a request with neither Content-Length nor Transfer-Encoding (an empty body, RFC 9112)', () => {
    expect(uploadContentLength({})).toBe(0);
  });

  it('is 411 SEM with a chunked body or a malformed Content-Length', () => {
    for (const headers of [
      { 'transfer-encoding': 'chunked' } as Record<string, string>,
      { 'transfer-encoding': 'chunked', 'content-length': '5' },
      { 'content-length': '-1' },
      { 'content-length': '1e3' },
    ])
      expect(failure(headers)).toEqual([411, 'SEM', expect.stringMatching(/Content-Length is required/)]);
  });

  it('is 413 SEM past 10 MiB', () => {
    expect(failure({ 'content-length': String(MAX_FILE_BYTES + 1) })).toEqual([
      413,
      'SEM',
      'The file exceeds the limit of 10485760 bytes',
    ]);
    expect(failure({ 'content-length': '9'.repeat(16) })[0]).toBe(413);
  });
});
