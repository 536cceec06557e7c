import { expectInvalid } from '../../test/domain-errors';
import { accountListQuery, programListQuery, tokenListQuery } from './lists';
import { encodePageToken } from './page';

const ID = '0123456789abcdef01234567';
const first = { pageSize: 0, pageToken: '' };

describe('accountListQuery', () => {
  it('takes an empty filter as none and a filter as it is (spaces and case kept: the query ignores case)', () => {
    expect(accountListQuery({ ...first, nameContains: '' })).toEqual({
      limit: 25,
      after: null,
      nameContains: null,
    });
    expect(accountListQuery({ ...first, nameContains: ' Acme %_ ' }).nameContains).toBe(' Acme %_ ');
  });

  it('takes 100 characters, counted as a person counts them', () => {
    expect(accountListQuery({ ...first, nameContains: '😀'.repeat(100) }).nameContains).toHaveLength(200);
  });

  it('refuses a long filter, a control character, and reports every problem at once', () => {
    expectInvalid(
      () => accountListQuery({ ...first, nameContains: 'x'.repeat(101) }),
      'nameContains: must be at most 100 characters',
    );
    expectInvalid(
      () => accountListQuery({ ...first, nameContains: 'a\nb' }),
      'nameContains: must not contain control characters',
    );
    expectInvalid(
      () => accountListQuery({ pageSize: -1, pageToken: 'x', nameContains: 'a\u0000' }),
      'pageSize: must be between 1 and 100 (0 = 25); pageToken: is not a nextPageToken of this list; ' +
        'nameContains: must not contain control characters',
    );
  });
});

describe('tokenListQuery', () => {
  it('is a page', () => {
    const after = { createdAt: new Date(5), id: ID };
    expect(tokenListQuery({ pageSize: 7, pageToken: encodePageToken(after) })).toEqual({ limit: 7, after });
  });
});

describe('programListQuery', () => {
  const none = { accountId: '', segment: '', mode: undefined, nameContains: '', ...first };

  it('takes empty filters as none', () => {
    expect(programListQuery(none)).toEqual({
      limit: 25,
      after: null,
      accountId: null,
      segment: null,
      mode: null,
      nameContains: null,
    });
  });

  it('takes every filter', () => {
    expect(
      programListQuery({ ...none, accountId: ID, segment: 'military', mode: 'LIVE', nameContains: 'spring' }),
    ).toMatchObject({ accountId: ID, segment: 'military', mode: 'LIVE', nameContains: 'spring' });
  });

  it('refuses a segment the spec does not name (case matters, as in programs)', () => {
    expectInvalid(
      () => programListQuery({ ...none, segment: 'Student' }),
      'segment: "Student" is not a segment',
    );
  });
});
