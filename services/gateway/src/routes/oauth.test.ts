import type { ProgramsClient } from '../clients/programs.client';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';
import { standIn } from '../../test/stand-in';
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

describe('POST /rest/oauth/token', () => {
  const calls: unknown[] = [];
  let refuse = false;
  const programs = standIn<ProgramsClient>('programs', {
    issueOAuthToken: async (req: unknown) => {
      calls.push(req);
      if (refuse)
        throw Object.assign(new Error('unknown client'), {
          code: 16,
          details: 'unknown client',
          metadata: undefined,
        });
      return { accessToken: 'eligo_oauth_1', expiresInSeconds: 3600 };
    },
  });
  let app: TestRestApp;

  beforeAll(async () => {
    app = await startTestRestApp({ programs });
  });
  afterAll(() => app.close());
  beforeEach(() => {
    calls.length = 0;
    refuse = false;
  });

  async function token(body: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${app.origin}/rest/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
    return {
      status: res.status,
      body: (await res.json()) as unknown,
      cache: res.headers.get('cache-control'),
      challenge: res.headers.get('www-authenticate'),
    };
  }
  const issued = { access_token: 'eligo_oauth_1', token_type: 'Bearer', expires_in: 3600 };
  const credentials = { clientId: 'cid_1', clientSecret: 's3cret' };
  const refused = (error: string, description: string) => ({ error, error_description: description });

  it('issues a token for form credentials, not to be cached, ignoring unknown parameters', async () => {
    const res = await token('grant_type=client_credentials&client_id=cid_1&client_secret=s3cret&audience=x');
    expect(res).toEqual({ status: 200, body: issued, cache: 'no-store', challenge: null });
    expect(calls).toEqual([credentials]);
  });

  it('issues a token for HTTP Basic credentials, and for a JSON body', async () => {
    expect(
      (await token('grant_type=client_credentials', { authorization: basic('cid_1:s3cret') })).body,
    ).toEqual(issued);
    const json = await token(
      JSON.stringify({ grant_type: 'client_credentials', client_id: 'cid_1', client_secret: 's3cret' }),
      {
        'content-type': 'application/json',
      },
    );
    expect(json.body).toEqual(issued);
    expect(calls).toEqual([credentials, credentials]);
  });

  it.each<[string, string, Record<string, string>, string, string]>([
    [
      'another grant type',
      'grant_type=password',
      {},
      'unsupported_grant_type',
      'Only client_credentials is supported',
    ],
    [
      'no grant type',
      'client_id=cid_1&client_secret=s3cret',
      {},
      'invalid_request',
      'request.grant_type is required',
    ],
    [
      'a repeated grant type',
      'grant_type=client_credentials&grant_type=client_credentials',
      {},
      'invalid_request',
      'request.grant_type must be string',
    ],
    [
      'a repeated client_id',
      'grant_type=client_credentials&client_id=a&client_id=b&client_secret=s',
      {},
      'invalid_request',
      'request.client_id must be string',
    ],
    [
      'a client_secret over 512 characters',
      `grant_type=client_credentials&client_id=a&client_secret=${'s'.repeat(513)}`,
      {},
      'invalid_request',
      'request.client_secret must NOT have more than 512 characters',
    ],
    [
      'two client authentication methods',
      'grant_type=client_credentials&client_id=cid_1',
      { authorization: basic('cid_1:s3cret') },
      'invalid_request',
      'Use one client authentication method, not two',
    ],
  ])('refuses %s with 400, without a call', async (_name, body, headers, error, description) => {
    const res = await token(body, headers);
    expect([res.status, res.body, res.cache, calls]).toEqual([
      400,
      refused(error, description),
      'no-store',
      [],
    ]);
  });

  it('answers no credentials with invalid_client and a Basic challenge', async () => {
    const res = await token('grant_type=client_credentials');
    expect([res.status, res.body, calls]).toEqual([
      401,
      refused('invalid_client', 'Client authentication failed'),
      [],
    ]);
    expect(res.challenge).toBe('Basic realm="eligo", charset="UTF-8"');
  });

  it('answers credentials the service refuses with invalid_client, challenging only Basic ones', async () => {
    refuse = true;
    const form = await token('grant_type=client_credentials&client_id=cid_1&client_secret=bad');
    expect([form.status, form.body, form.challenge]).toEqual([
      401,
      refused('invalid_client', 'Client authentication failed'),
      null,
    ]);
    const header = await token('grant_type=client_credentials', { authorization: basic('cid_1:bad') });
    expect([header.status, header.challenge]).toEqual([401, 'Basic realm="eligo", charset="UTF-8"']);
  });
});
