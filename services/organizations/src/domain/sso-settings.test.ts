import { DomainError, parseAllowCidrs } from '@eligo/runtime';
import {
  addressProblem,
  checkSsoSettings,
  issuerProblem,
  redirectUriProblem,
  type SsoSettingsInput,
} from './sso-settings';

const loopback = parseAllowCidrs('127.0.0.0/8, ::1/128');
const none = parseAllowCidrs('');
const input: SsoSettingsInput = {
  issuer: 'https://login.example.edu',
  clientId: 'eligo',
  clientSecret: '',
  scopes: ['email'],
  rule: { claims: [], emailDomainInOrganization: true },
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return [(err as DomainError).kind, (err as DomainError).errorIds, (err as DomainError).message];
  }
  return undefined;
};

describe('checkSsoSettings', () => {
  it('adds openid first, keeps each scope once, and keeps the stored secret for an empty one', () => {
    expect(checkSsoSettings({ ...input, scopes: ['email', 'openid', 'email', 'profile'] }, none)).toEqual({
      issuer: 'https://login.example.edu',
      clientId: 'eligo',
      clientSecret: undefined,
      scopes: ['openid', 'email', 'profile'],
      rule: input.rule,
    });
    expect(checkSsoSettings({ ...input, clientSecret: 's3cret' }, none).clientSecret).toBe('s3cret');
  });

  it('names every bad field at once, as invalidRequest', () => {
    expect(
      refusal(() =>
        checkSsoSettings(
          {
            issuer: 'http://login.example.edu',
            clientId: '',
            clientSecret: 'x'.repeat(1025),
            scopes: ['email', 'a b'],
            rule: { claims: [], emailDomainInOrganization: false },
          },
          none,
        ),
      ),
    ).toEqual([
      'invalidArgument',
      ['invalidRequest'],
      'issuer: must use https (http only for a non-public IP address inside ELIGO_WEBHOOK_ALLOW_CIDRS); ' +
        'clientId: must be 1 to 256 characters; clientSecret: must be 0 to 1024 characters; ' +
        'scopes[1]: must be 1 to 64 printable ASCII characters without space, " or \\; ' +
        'rule: must check something: give at least one claim rule, or emailDomainInOrganization',
    ]);
  });

  it('refuses more than 20 scopes and control characters in the client id', () => {
    expect(refusal(() => checkSsoSettings({ ...input, scopes: Array(21).fill('email') }, none))?.[2]).toBe(
      'scopes: must have at most 20 scopes',
    );
    expect(refusal(() => checkSsoSettings({ ...input, clientId: 'a\nb' }, none))?.[2]).toBe(
      'clientId: must not contain control characters',
    );
  });
});

describe('issuerProblem', () => {
  it.each<[string, string | undefined]>([
    ['https://login.example.edu', undefined],
    ['https://login.example.edu/realms/students', undefined],
    ['https://login.example.edu:8443/', undefined],
    ['https://8.8.8.8', undefined],
    ['', 'is required'],
    ['login.example.edu', 'must be an absolute URL'],
    [' https://login.example.edu', 'must be an absolute URL without spaces or control characters'],
    ['https://login.example.edu/?tenant=1', 'must not have a query or fragment'],
    ['https://login.example.edu/#x', 'must not have a query or fragment'],
    ['https://user:pw@login.example.edu', 'must not contain a user name or password'],
    ['ftp://login.example.edu', 'must use https'],
    ['https://127.0.0.1', 'names a blocked address (loopback)'],
    ['https://169.254.169.254', 'names a blocked address (linkLocal)'],
    ['https://[::1]', 'names a blocked address (loopback)'],
    [
      'http://10.0.0.1',
      'must use https (http only for a non-public IP address inside ELIGO_WEBHOOK_ALLOW_CIDRS)',
    ],
    [`https://x.edu/${'a'.repeat(2048)}`, 'must be at most 2048 characters'],
  ])('%s: %s', (issuer, problem) => {
    expect(issuerProblem(issuer, none)).toBe(problem);
  });

  it('lets the allow list open a non-public address, also over plain http', () => {
    expect(issuerProblem('https://127.0.0.1:8443', loopback)).toBeUndefined();
    expect(issuerProblem('http://127.0.0.1:9000', loopback)).toBeUndefined();
    expect(issuerProblem('http://[::1]:9000', loopback)).toBeUndefined();
    // Plain http to a name, or to a public address, stays refused whatever the list.
    expect(issuerProblem('http://localhost:9000', loopback)).toMatch(/^must use https/);
    expect(issuerProblem('http://8.8.8.8', parseAllowCidrs('8.8.8.0/24'))).toMatch(/^must use https/);
  });
});

describe('addressProblem', () => {
  it('judges every URL a provider names (its endpoints) like the issuer, queries allowed', () => {
    expect(addressProblem(new URL('https://login.example.edu/token?x=1'), none)).toBeUndefined();
    expect(addressProblem(new URL('http://127.0.0.1:9000/token'), none)).toMatch(/^must use https/);
    expect(addressProblem(new URL('https://[::ffff:127.0.0.1]/jwks'), none)).toBe(
      'names a blocked address (ipv4Mapped)',
    );
  });
});

describe('redirectUriProblem', () => {
  it.each<[string, string | undefined]>([
    ['https://eligo.example.com/rest/v2/verification/abc/step/sso/callback', undefined],
    ['http://localhost:8080/callback', undefined],
    ['https://eligo.example.com/callback?x=1', 'must not have a query or fragment'],
    ['https://user@eligo.example.com/callback', 'must not contain a user name or password'],
    ['javascript:alert(1)', 'must use http or https'],
    ['/callback', 'must be an absolute URL'],
  ])('%s: %s', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });
});
