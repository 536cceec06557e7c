import { decodePageToken, encodePageToken } from './page-token';

describe('page tokens', () => {
  it('round-trip a cursor exactly', () => {
    const cursor = { createdAt: new Date(1_700_000_000_123), id: '0123456789abcdef01234567' };
    const token = encodePageToken(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageToken(token)).toEqual(cursor);
  });

  it.each([
    'x',
    Buffer.from('{"t":1}').toString('base64url'),
    Buffer.from('{"t":"a","i":"b"}').toString('base64url'),
  ])('refuses %j as invalidRequest', (token) => {
    expect(() => decodePageToken(token)).toThrow(
      'pageToken: is not a token returned by ListAddSchoolRequests',
    );
  });
});
