import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staffOidcSettings, type StaffOidcEnv } from './oidc-config';

const base: StaffOidcEnv = {
  ELIGO_GATEWAY_STAFF_OIDC_SCOPES: 'openid email profile',
  ELIGO_GATEWAY_STAFF_OIDC_LABEL: 'your organization',
};
const issuesOf = (env: Partial<StaffOidcEnv>) => {
  try {
    staffOidcSettings({ ...base, ...env });
    return [];
  } catch (err) {
    return (err as { issues: string[] }).issues;
  }
};

describe('staffOidcSettings', () => {
  it('is off without an issuer', () => {
    expect(staffOidcSettings(base)).toBeUndefined();
  });

  it('reads an https issuer, the client and its secret from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oidc-'));
    writeFileSync(join(dir, 'secret'), 's3cret\n');
    expect(
      staffOidcSettings({
        ...base,
        ELIGO_GATEWAY_STAFF_OIDC_ISSUER: 'https://login.example.com/realms/staff',
        ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: 'eligo',
        ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE: join(dir, 'secret'),
        ELIGO_GATEWAY_STAFF_OIDC_LABEL: ' Example Corp ',
      }),
    ).toEqual({
      issuer: new URL('https://login.example.com/realms/staff'),
      clientId: 'eligo',
      clientSecret: 's3cret',
      scopes: 'openid email profile',
      label: 'Example Corp',
    });
  });

  it.each<[string, Partial<StaffOidcEnv>, string[]]>([
    [
      'a client without an issuer',
      { ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: 'x' },
      ['ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: set ELIGO_GATEWAY_STAFF_OIDC_ISSUER too, or leave them out'],
    ],
    [
      'plain http to another machine',
      {
        ELIGO_GATEWAY_STAFF_OIDC_ISSUER: 'http://login.example.com',
        ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: 'x',
      },
      ['ELIGO_GATEWAY_STAFF_OIDC_ISSUER: must be https (http only on 127.0.0.1, [::1] or localhost)'],
    ],
    [
      'no client id, and scopes without email',
      { ELIGO_GATEWAY_STAFF_OIDC_ISSUER: 'http://127.0.0.1:9', ELIGO_GATEWAY_STAFF_OIDC_SCOPES: 'openid' },
      [
        'ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: required with an issuer',
        'ELIGO_GATEWAY_STAFF_OIDC_SCOPES: must include email',
      ],
    ],
    [
      'a secret given twice, and a secret file that is not there',
      {
        ELIGO_GATEWAY_STAFF_OIDC_ISSUER: 'https://login.example.com',
        ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: 'x',
        ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET: 'a',
        ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE: '/nonexistent/secret',
      },
      [
        'ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE: set it or ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET, not both',
      ],
    ],
    [
      'an issuer that is no URL',
      { ELIGO_GATEWAY_STAFF_OIDC_ISSUER: 'login', ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: 'x' },
      ['ELIGO_GATEWAY_STAFF_OIDC_ISSUER: not a URL'],
    ],
  ])('refuses %s', (_name, env, issues) => {
    expect(issuesOf(env)).toEqual(issues);
  });
});
