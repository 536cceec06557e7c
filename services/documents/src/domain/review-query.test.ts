import { decodeCursor, encodeCursor, parseReviewQuery } from './review-query';

const ID = '0b6f3a52-8f7e-4c1e-9a57-2d8c1f6e4b10';

describe('review cursor', () => {
  it('round-trips (submitted_at to the millisecond, id) and is URL-safe', () => {
    const cursor = { submittedAt: new Date('2025-03-04T05:06:07.089Z'), id: ID };
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  it('carries the order: a cursor of one order is not read in the other', () => {
    const cursor = { submittedAt: new Date('2025-03-04T05:06:07.089Z'), id: ID };
    const newest = encodeCursor(cursor, 'newest');
    expect(decodeCursor(newest, 'newest')).toEqual(cursor);
    expect(() => decodeCursor(newest, 'oldest')).toThrow(
      expect.objectContaining({ kind: 'invalidArgument' }),
    );
    expect(() => decodeCursor(encodeCursor(cursor), 'newest')).toThrow(
      expect.objectContaining({ kind: 'invalidArgument' }),
    );
    // Cursors of the oldest-first order read as they did before orders existed.
    expect(encodeCursor(cursor, 'oldest')).toBe(
      Buffer.from(`${cursor.submittedAt.getTime()}.${ID}`).toString('base64url'),
    );
  });

  it.each([
    ['not base64 of a cursor', 'abc'],
    ['a bad id', Buffer.from(`1700000000000.${'z'.repeat(36)}`).toString('base64url')],
    ['no time', Buffer.from(`.${ID}`).toString('base64url')],
    ['a negative time', Buffer.from(`-5.${ID}`).toString('base64url')],
  ])('refuses %s', (_, value) => {
    expect(() => decodeCursor(value)).toThrow(expect.objectContaining({ kind: 'invalidArgument' }));
  });
});

describe('parseReviewQuery', () => {
  const all = { programId: undefined, segment: undefined, order: 'oldest' };
  const PROGRAM = '0123456789abcdef01234567';
  it.each([
    [
      { status: '', limit: 0, cursor: '' },
      { status: undefined, limit: 50, after: undefined, ...all },
    ],
    [
      { status: 'pending', limit: 1, cursor: '' },
      { status: 'pending', limit: 1, after: undefined, ...all },
    ],
    [
      { status: 'approved', limit: 100, cursor: '' },
      { status: 'approved', limit: 100, after: undefined, ...all },
    ],
    [
      { status: 'rejected', limit: 7, cursor: '' },
      { status: 'rejected', limit: 7, after: undefined, ...all },
    ],
    [
      { status: 'pending', limit: 0, cursor: '', programId: PROGRAM, segment: 'student', order: 'newest' },
      {
        status: 'pending',
        limit: 50,
        after: undefined,
        programId: PROGRAM,
        segment: 'student',
        order: 'newest',
      },
    ],
    [
      { status: '', limit: 0, cursor: '', programId: '', segment: '', order: '' },
      { status: undefined, limit: 50, after: undefined, ...all },
    ],
    [
      { status: '', limit: 0, cursor: '', order: 'oldest' },
      { status: undefined, limit: 50, after: undefined, ...all },
    ],
  ])('%j', (request, expected) => {
    expect(parseReviewQuery(request)).toEqual(expected);
  });

  it.each([
    [{ status: 'PENDING', limit: 0, cursor: '' }],
    [{ status: 'open', limit: 0, cursor: '' }],
    [{ status: '', limit: 101, cursor: '' }],
    [{ status: '', limit: -1, cursor: '' }],
    [{ status: '', limit: 0, cursor: 'nonsense' }],
    [{ status: '', limit: 0, cursor: '', programId: 'ABCDEF0123456789abcdef01' }],
    [{ status: '', limit: 0, cursor: '', programId: 'p1' }],
    [{ status: '', limit: 0, cursor: '', segment: 'Student' }],
    [{ status: '', limit: 0, cursor: '', segment: 'pirate' }],
    [{ status: '', limit: 0, cursor: '', order: 'asc' }],
  ])('refuses %j', (request) => {
    expect(() => parseReviewQuery(request)).toThrow(expect.objectContaining({ kind: 'invalidArgument' }));
  });
});
