import { decodeCursor, encodeCursor, parsePageQuery } from './page';

describe('page queries', () => {
  it('round-trips a cursor exactly, and hides its shape', () => {
    const cursor = { createdAt: new Date('2026-03-01T12:00:00.123Z'), id: 'msg_0123456789abcdef01234567' };
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  it('defaults the page size and checks its bounds', () => {
    expect(parsePageQuery({ limit: 0, cursor: '' })).toEqual({ limit: 20, before: undefined });
    expect(parsePageQuery({ limit: 100, cursor: '' }).limit).toBe(100);
    expect(() => parsePageQuery({ limit: 101, cursor: '' })).toThrow('limit must be between 1 and 100');
    expect(() => parsePageQuery({ limit: -1, cursor: '' })).toThrow('limit');
  });

  it('refuses a cursor it did not make', () => {
    expect(() => parsePageQuery({ limit: 0, cursor: 'bm90IGEgY3Vyc29y' })).toThrow('Invalid cursor');
    expect(() => decodeCursor(Buffer.from("1.x' or 1=1").toString('base64url'))).toThrow('Invalid cursor');
  });
});
