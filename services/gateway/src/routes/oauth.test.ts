import { basicCredentials } from './oauth';

const basic = (raw: string) => `Basic ${Buffer.from(raw, 'utf8').toString('base64')}`;

describe('HTTP Basic client authentication (RFC 6749 section 2.3.1)', () => {
  it('splits at the first colon and form-decodes both parts', () => {
    expect(basicCredentials(basic('cid_1:s3cr%3At+x'))).toEqual({
      kind: 'basic',
      clientId: 'cid_1',
      clientSecret: 's3cr:t x',
    });
    expect(basicCredentials(basic('cid:a:b'))).toMatchObject({ clientSecret: 'a:b' });
    expect(basicCredentials(`basic ${Buffer.from('c:s').toString('base64')}`)).toMatchObject({
      kind: 'basic',
    });
  });

  it.each([
    ['no colon', basic('justanid')],
    ['an empty id', basic(':secret')],
    ['an empty secret', basic('cid:')],
    ['bad percent-encoding', basic('cid:%E0%A4%A')],
    ['not base64', 'Basic ***'],
  ])('calls %s malformed', (_name, header) => {
    expect(basicCredentials(header)).toEqual({ kind: 'malformed' });
  });

  it('ignores other schemes and a missing header', () => {
    expect(basicCredentials(undefined)).toEqual({ kind: 'none' });
    expect(basicCredentials('Bearer abc')).toEqual({ kind: 'none' });
  });
});
