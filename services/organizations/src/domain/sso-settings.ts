import { blockedRange, NO_ALLOWED_CIDRS, type AllowCidrs } from '@eligo/runtime';
import { charLength, CONTROL_CHARACTERS, Problems } from './problems';
import { checkSsoRule, type SsoRule } from './sso-rule';

/**
 * The settings of an organization's OpenID Connect client as SetOrganizationSso takes them, and the address
 * rules of every HTTP call to a provider (docs/operations.md, "Single sign-on with an organization"). Pure:
 * the addresses of names are judged when connecting (adapters/guarded-fetch.ts), IP addresses here.
 */

export interface SsoSettingsInput {
  issuer: string;
  clientId: string;
  /** Empty = keep the stored one. */
  clientSecret: string;
  scopes: readonly string[];
  rule: SsoRule | undefined;
}

export interface SsoSettings {
  issuer: string;
  clientId: string;
  /** undefined = keep the stored one (none: a public client). */
  clientSecret: string | undefined;
  /** `openid` first, each scope once. */
  scopes: string[];
  rule: SsoRule;
}

export const MAX_URL_LENGTH = 2048;
export const MAX_CLIENT_ID_LENGTH = 256;
export const MAX_CLIENT_SECRET_LENGTH = 1024;
export const MAX_SCOPES = 20;
export const MAX_SCOPE_LENGTH = 64;
/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = new RegExp(`^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,${MAX_SCOPE_LENGTH}}$`);

/** Checks every field (INVALID_ARGUMENT invalidRequest naming each bad one) and returns them as stored. */
export function checkSsoSettings(input: SsoSettingsInput, allow: AllowCidrs): SsoSettings {
  const problems = new Problems();
  const issuer = issuerProblem(input.issuer, allow);
  if (issuer) problems.add('issuer', issuer);
  plainText(problems, 'clientId', input.clientId, 1, MAX_CLIENT_ID_LENGTH);
  plainText(problems, 'clientSecret', input.clientSecret, 0, MAX_CLIENT_SECRET_LENGTH);
  if (input.scopes.length > MAX_SCOPES) problems.add('scopes', `must have at most ${MAX_SCOPES} scopes`);
  input.scopes.slice(0, MAX_SCOPES).forEach((scope, i) => {
    if (!SCOPE_TOKEN.test(scope))
      problems.add(
        `scopes[${i}]`,
        `must be 1 to ${MAX_SCOPE_LENGTH} printable ASCII characters without space, " or \\`,
      );
  });
  const rule = checkSsoRule(problems, input.rule);
  problems.throwIfAny();
  return {
    issuer: input.issuer,
    clientId: input.clientId,
    clientSecret: input.clientSecret === '' ? undefined : input.clientSecret,
    scopes: [...new Set(['openid', ...input.scopes])],
    rule,
  };
}

function plainText(problems: Problems, field: string, value: string, min: number, max: number): void {
  const length = charLength(value);
  if (length < min || length > max) problems.add(field, `must be ${min} to ${max} characters`);
  else if (CONTROL_CHARACTERS.test(value)) problems.add(field, 'must not contain control characters');
}

/**
 * Why an issuer identifier is refused, or undefined: an absolute URL without query or fragment (OpenID
 * Connect Discovery 1.0, section 2) that may be called (addressProblem).
 */
export function issuerProblem(text: string, allow: AllowCidrs): string | undefined {
  const url = absoluteUrl(text);
  if (typeof url === 'string') return url;
  if (url.search !== '' || url.hash !== '' || text.includes('#') || text.includes('?'))
    return 'must not have a query or fragment';
  return addressProblem(url, allow);
}

/**
 * Why a provider's URL may not be called, or undefined (the webhooks' address rules, shared through
 * @eligo/runtime): https, or http only to an IP address that is not public and that ELIGO_WEBHOOK_ALLOW_CIDRS
 * opens (tests, private deployments: a name over plain http could be anything between us and it); no user
 * name or password; an IP address host public unless the allow list holds it. The message names a range,
 * never the address.
 */
export function addressProblem(url: URL, allow: AllowCidrs): string | undefined {
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // 'invalid' for a name (not an IP address), undefined for a public address.
  const withoutList = blockedRange(host, NO_ALLOWED_CIDRS);
  const literal = withoutList !== 'invalid';
  if (url.protocol === 'http:') {
    if (!literal || withoutList === undefined || blockedRange(host, allow) !== undefined)
      return 'must use https (http only for a non-public IP address inside ELIGO_WEBHOOK_ALLOW_CIDRS)';
    return undefined;
  }
  if (url.protocol !== 'https:') return 'must use https';
  const range = literal ? blockedRange(host, allow) : undefined;
  return range === undefined ? undefined : `names a blocked address (${range})`;
}

/**
 * Why a redirect URI is refused, or undefined: Eligo's own callback, as registered with the provider, an
 * absolute http or https URL without user name or password, and without query or fragment (the client
 * library sends the callback's address without its query as the redirect_uri of the token request).
 */
export function redirectUriProblem(text: string): string | undefined {
  const url = absoluteUrl(text);
  if (typeof url === 'string') return url;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use http or https';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (url.search !== '' || url.hash !== '' || text.includes('#') || text.includes('?'))
    return 'must not have a query or fragment';
  return undefined;
}

/** The URL, or why it is not one: at most 2048 characters, absolute, as written (no spaces to trim). */
function absoluteUrl(text: string): URL | string {
  if (text === '') return 'is required';
  if (text.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  if (text.trim() !== text || CONTROL_CHARACTERS.test(text) || /\s/.test(text))
    return 'must be an absolute URL without spaces or control characters';
  try {
    return new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
}
