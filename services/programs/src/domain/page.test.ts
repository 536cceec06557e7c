import { Problems } from './invalid';
import { checkPage, decodePageToken, encodePageToken, MAX_PAGE_SIZE, pageOf, type PageCursor } from './page';
import { expectInvalid } from '../../test/domain-errors';

const ID = '0123456789abcdef01234567';
const cursor: PageCursor = { createdAt: new Date('2026-03-01T12:34:56.789Z'), id: ID };
const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** checkPage as a request handler uses it: problems thrown as one INVALID_ARGUMENT. */
function page(request: { pageSize: number; pageToken: string }) {
  const problems = new Problems();
  const result = checkPage(problems, request);
  problems.throwIfAny();
  return result;
}

describe('page tokens', () => {
  it('round-trips a position to the millisecond, as base64url of {"t","i"} (the organizations format)', () => {
    const token = encodePageToken(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token, 'base64url').toString()).toBe(
      `{"t":${cursor.createdAt.getTime()},"i":"${ID}"}`,
    );
    expect(decodePageToken(token)).toEqual(cursor);
  });

  it.each([
    ['not base64url JSON', 'not a token'],
    ['empty JSON', b64('{}')],
    ['JSON null', b64('null')],
    ['a JSON array', b64(`[${cursor.createdAt.getTime()},"${ID}"]`)],
    ['a malformed id', b64(`{"t":1,"i":"ABC"}`)],
    ['an id of 25 characters', b64(`{"t":1,"i":"${ID}0"}`)],
    ['a time in a string', b64(`{"t":"1","i":"${ID}"}`)],
    ['a fractional time', b64(`{"t":1.5,"i":"${ID}"}`)],
    ['a time no Date holds', b64(`{"t":9007199254740991,"i":"${ID}"}`)],
    ['keys in another order', b64(`{"i":"${ID}","t":1}`)],
    ['extra keys', b64(`{"t":1,"i":"${ID}","x":0}`)],
    ['whitespace in the JSON', b64(`{"t": 1,"i":"${ID}"}`)],
    ['standard base64 padding', Buffer.from(`{"t":1,"i":"${ID}"}`).toString('base64')],
    ['characters the decoder would skip', `${encodePageToken(cursor)}!!`],
    ['an over-long value', 'A'.repeat(201)],
  ])('reads nothing back from %s', (_case, token) => {
    expect(decodePageToken(token)).toBeUndefined();
  });

  it('reads back only exact tokens (the position of another list is still only a position)', () => {
    const token = encodePageToken({ createdAt: new Date(0), id: ID });
    expect(decodePageToken(token)).toEqual({ createdAt: new Date(0), id: ID });
  });
});

describe('checkPage', () => {
  it('defaults to 25 rows from the start', () => {
    expect(page({ pageSize: 0, pageToken: '' })).toEqual({ limit: 25, after: null });
  });

  it('takes 1 to 100 rows and the position of a token', () => {
    expect(page({ pageSize: 1, pageToken: '' }).limit).toBe(1);
    expect(page({ pageSize: MAX_PAGE_SIZE, pageToken: encodePageToken(cursor) })).toEqual({
      limit: 100,
      after: cursor,
    });
  });

  it.each([-1, 101, 1.5])('refuses a page size of %s', (pageSize) => {
    expectInvalid(() => page({ pageSize, pageToken: '' }), 'pageSize: must be between 1 and 100 (0 = 25)');
  });

  it('refuses a token it did not give, together with the other problems', () => {
    expectInvalid(
      () => page({ pageSize: 0, pageToken: 'abc' }),
      'pageToken: is not a nextPageToken of this list',
    );
    expectInvalid(
      () => page({ pageSize: 500, pageToken: 'abc' }),
      'pageSize: must be between 1 and 100 (0 = 25); pageToken: is not a nextPageToken of this list',
    );
  });
});

describe('pageOf', () => {
  const rows = [3, 2, 1].map((n) => ({ createdAt: new Date(n * 1000), id: `${n}`.repeat(24), n }));

  it('keeps the page and gives the position of its last row when one more row was read', () => {
    const { items, nextPageToken } = pageOf(rows, { limit: 2, after: null });
    expect(items.map((r) => r.n)).toEqual([3, 2]);
    expect(decodePageToken(nextPageToken)).toEqual({ createdAt: new Date(2000), id: '2'.repeat(24) });
  });

  it('gives no token on the last page, also a full one', () => {
    expect(pageOf(rows, { limit: 3, after: null }).nextPageToken).toBe('');
    expect(pageOf(rows, { limit: 5, after: null }).nextPageToken).toBe('');
    expect(pageOf([], { limit: 5, after: null })).toEqual({ items: [], nextPageToken: '' });
  });
});
