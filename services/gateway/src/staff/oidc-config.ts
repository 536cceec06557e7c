import { readFileSync } from 'node:fs';
import { ConfigError } from '@eligo/runtime';

/** Staff sign-in through the operator's OpenID provider (docs/operations.md, "Staff sign-in with OIDC"). */
export interface StaffOidcSettings {
  issuer: URL;
  clientId: string;
  /** Empty: a public client (PKCE only, no client authentication). */
  clientSecret: string;
  scopes: string;
  /** The console's button: "Sign in with <label>". */
  label: string;
}

export interface StaffOidcEnv {
  ELIGO_GATEWAY_STAFF_OIDC_ISSUER?: string;
  ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID?: string;
  ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET?: string;
  ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE?: string;
  ELIGO_GATEWAY_STAFF_OIDC_SCOPES: string;
  ELIGO_GATEWAY_STAFF_OIDC_LABEL: string;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The OIDC settings, or undefined when no issuer is set (password sign-in only). The issuer must be https
 * (the ID token's keys come from it) unless it is on this machine, as a test's provider is; `openid` must
 * be among the scopes, and `email` too (the member is found by the verified email claim).
 */
export function staffOidcSettings(env: StaffOidcEnv): StaffOidcSettings | undefined {
  const issues: string[] = [];
  const issuerText = env.ELIGO_GATEWAY_STAFF_OIDC_ISSUER?.trim() ?? '';
  const others = [
    'ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID',
    'ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET',
    'ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE',
  ] as const;
  if (issuerText === '') {
    const stray = others.filter((name) => env[name]);
    if (stray.length > 0)
      throw new ConfigError([
        `${stray.join(', ')}: set ELIGO_GATEWAY_STAFF_OIDC_ISSUER too, or leave them out`,
      ]);
    return undefined;
  }
  let issuer: URL | undefined;
  try {
    issuer = new URL(issuerText);
  } catch {
    issues.push('ELIGO_GATEWAY_STAFF_OIDC_ISSUER: not a URL');
  }
  if (
    issuer &&
    issuer.protocol !== 'https:' &&
    !(issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname))
  )
    issues.push(
      'ELIGO_GATEWAY_STAFF_OIDC_ISSUER: must be https (http only on 127.0.0.1, [::1] or localhost)',
    );
  const clientId = env.ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID?.trim() ?? '';
  if (clientId === '') issues.push('ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: required with an issuer');
  const clientSecret = secretOf(env, issues);
  const scopes = env.ELIGO_GATEWAY_STAFF_OIDC_SCOPES.split(/\s+/).filter(Boolean);
  for (const needed of ['openid', 'email'])
    if (!scopes.includes(needed)) issues.push(`ELIGO_GATEWAY_STAFF_OIDC_SCOPES: must include ${needed}`);
  if (issues.length > 0 || !issuer) throw new ConfigError(issues);
  return {
    issuer,
    clientId,
    clientSecret,
    scopes: scopes.join(' '),
    label: env.ELIGO_GATEWAY_STAFF_OIDC_LABEL.trim() || 'your organization',
  };
}

function secretOf(env: StaffOidcEnv, issues: string[]): string {
  const file = env.ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE;
  if (file && env.ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET) {
    issues.push(
      'ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE: set it or ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET, not both',
    );
    return '';
  }
  if (!file) return env.ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET ?? '';
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    issues.push(
      `ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`,
    );
    return '';
  }
}
