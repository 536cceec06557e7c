import {
  DEFAULT_SEARCH_PAGE_SIZE,
  decodeSearchToken,
  encodeSearchToken,
  searchPageOf,
  searchQueryOf,
  type SearchRequest,
} from './search';

const ID = '0123456789abcdef01234567';
const POSITION = { createdAt: '2026-11-26T13:06:22.123456Z', id: ID };
const request = (fields: Partial<SearchRequest>): SearchRequest => ({
  trackingId: '',
  email: '',
  programId: '',
  pageSize: 0,
  pageToken: '',
  ...fields,
});

/** The refusal's message, or undefined when the request is taken. */
function refusal(fields: Partial<SearchRequest>): string | undefined {
  try {
    searchQueryOf(request(fields));
    return undefined;
  } catch (err) {
    expect(err).toMatchObject({ kind: 'invalidArgument', errorIds: ['invalidRequest'] });
    return (err as Error).message;
  }
}

describe('searchQueryOf', () => {
  it('folds the email (trimmed, lower-cased) and trims the tracking id', () => {
    expect(searchQueryOf(request({ email: '  Jane.Doe@Example.COM ', trackingId: ' t-1 ' }))).toEqual({
      trackingId: 't-1',
      email: 'jane.doe@example.com',
      programId: null,
      limit: DEFAULT_SEARCH_PAGE_SIZE,
      after: null,
    });
  });

  it('takes a program alone, a page size and a token it gave', () => {
    const token = encodeSearchToken(POSITION);
    expect(searchQueryOf(request({ programId: ID, pageSize: 7, pageToken: token }))).toMatchObject({
      programId: ID,
      trackingId: null,
      email: null,
      limit: 7,
      after: POSITION,
    });
  });

  it.each([
    [{}, 'At least one of trackingId, email and programId'],
    [{ trackingId: '   ', email: ' ' }, 'At least one of'],
    [{ programId: 'ABCDEF0123456789abcdef01' }, 'programId'],
    [{ programId: ID, pageSize: 101 }, 'pageSize'],
    [{ programId: ID, pageSize: -1 }, 'pageSize'],
    [{ trackingId: 'x'.repeat(257) }, 'trackingId: at most 256'],
    [{ email: `${'a'.repeat(250)}@x.io` }, 'email: at most 254'],
    [{ email: 'a\u0000@x.io' }, 'email: must not contain control characters'],
    [{ trackingId: 'a\nb' }, 'trackingId: must not contain control characters'],
    [{ programId: ID, pageToken: 'not-a-token' }, 'pageToken'],
  ])('refuses %j (invalidRequest)', (fields, message) => {
    expect(refusal(fields)).toContain(message);
  });

  it('never echoes the email it refuses', () => {
    expect(refusal({ email: `secret-${'a'.repeat(260)}@x.io` })).not.toContain('secret');
  });
});

describe('search page tokens', () => {
  it('read back exactly the position they were made of', () => {
    expect(decodeSearchToken(encodeSearchToken(POSITION))).toEqual(POSITION);
  });

  it.each([
    ['another encoding of the same JSON', Buffer.from(JSON.stringify({ i: ID, t: POSITION.createdAt }))],
    ['milliseconds only', Buffer.from(JSON.stringify({ t: '2026-11-26T13:06:22.123Z', i: ID }))],
    ['an impossible date', Buffer.from(JSON.stringify({ t: '2026-13-45T13:06:22.123456Z', i: ID }))],
    ['a day the month lacks', Buffer.from(JSON.stringify({ t: '2026-02-30T13:06:22.123456Z', i: ID }))],
    ['an id of another shape', Buffer.from(JSON.stringify({ t: POSITION.createdAt, i: 'x' }))],
    ['not an object', Buffer.from('"text"')],
    ['not JSON', Buffer.from('{')],
  ])('refuse %s', (_what, bytes) => {
    expect(decodeSearchToken(bytes.toString('base64url'))).toBeUndefined();
  });

  it('refuse a token with characters base64url skips, and an overlong one', () => {
    const token = encodeSearchToken(POSITION);
    expect(decodeSearchToken(`${token}!`)).toBeUndefined();
    expect(decodeSearchToken('A'.repeat(201))).toBeUndefined();
  });
});

describe('searchPageOf', () => {
  const rows = [1, 2, 3].map((n) => ({ n, position: { ...POSITION, id: `${ID.slice(0, 23)}${n}` } }));

  it('gives the position of the last listed row when one more was read', () => {
    const page = searchPageOf(rows, 2);
    expect(page.items.map((r) => r.n)).toEqual([1, 2]);
    expect(decodeSearchToken(page.nextPageToken)).toEqual(rows[1]!.position);
  });

  it('gives no token on the last page', () => {
    expect(searchPageOf(rows, 3)).toEqual({ items: rows, nextPageToken: '' });
    expect(searchPageOf([], 3)).toEqual({ items: [], nextPageToken: '' });
  });
});
