import type { z } from 'zod';
import { zodSays } from '../../test/check-answers';
import { createDocumentValidator } from '../../test/document-validator';
import {
  OrganizationSso,
  OrganizationSsoRequest,
  SsoClaimRule,
  SsoRuleInput,
} from './admin-organization-sso';

// The single sign-on definitions are new (no hand-written schema before them): their zod checks must accept
// and refuse what the served document's JSON Schema (read by Ajv) does, in the same words.
const schemas: Record<string, z.ZodType> = {
  OrganizationSsoRequest,
  OrganizationSso,
  SsoRuleInput,
  SsoClaimRule,
};
const { check } = createDocumentValidator();

const body = {
  issuer: 'https://login.stanford.edu/realms/students',
  clientId: 'eligo',
  clientSecret: 's3cret',
  scopes: ['email', 'affiliation'],
  rule: { claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }], emailDomainInOrganization: true },
};
const answer = {
  organizationId: 42,
  issuer: body.issuer,
  clientId: 'eligo',
  hasClientSecret: true,
  scopes: ['openid', 'email'],
  rule: { claims: [{ claim: 'groups', anyOf: ['a'] }], emailDomainInOrganization: false },
  updated: 1_700_000_000_000,
};

function without<T extends object>(value: T, key: keyof T): Partial<T> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

/** [schema, body, the one answer both give (undefined: accepted)]. */
const cases: [string, unknown, string | undefined][] = [
  ['OrganizationSsoRequest', body, undefined],
  ['OrganizationSsoRequest', { issuer: 'https://idp.example.edu', clientId: 'x', rule: {} }, undefined],
  ['OrganizationSsoRequest', { ...body, issuer: 'http://127.0.0.1:8080' }, undefined],
  ['OrganizationSsoRequest', { ...body, issuer: 'HTTPS://[::1]:8443/' }, undefined],
  [
    'OrganizationSsoRequest',
    { ...body, issuer: 'https://login.stanford.edu/?tenant=1' },
    'body.issuer must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password), without query or fragment',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, issuer: 'https://login.stanford.edu/#x' },
    'body.issuer must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password), without query or fragment',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, issuer: 'ftp://login.stanford.edu' },
    'body.issuer must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password), without query or fragment',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, issuer: `https://x.edu/${'a'.repeat(2040)}` },
    'body.issuer must NOT have more than 2048 characters',
  ],
  ['OrganizationSsoRequest', { ...body, issuer: 7 }, 'body.issuer must be string'],
  [
    'OrganizationSsoRequest',
    { ...body, clientId: '' },
    'body.clientId must NOT have fewer than 1 characters',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, clientId: 'x'.repeat(257) },
    'body.clientId must NOT have more than 256 characters',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, clientId: 'a\u0007b' },
    'body.clientId must not contain control characters',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, clientSecret: 'x'.repeat(1025) },
    'body.clientSecret must NOT have more than 1024 characters',
  ],
  ['OrganizationSsoRequest', { ...body, clientSecret: null }, 'body.clientSecret must be string'],
  [
    'OrganizationSsoRequest',
    { ...body, scopes: Array(21).fill('email') },
    'body.scopes must NOT have more than 20 items',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, scopes: ['email', 'two words'] },
    'body.scopes[1] must be 1 to 64 printable ASCII characters without space, " or \\',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, scopes: ['x'.repeat(65)] },
    'body.scopes[0] must be 1 to 64 printable ASCII characters without space, " or \\',
  ],
  ['OrganizationSsoRequest', without(body, 'rule'), 'body.rule is required'],
  [
    'OrganizationSsoRequest',
    { ...body, rule: { claims: Array(11).fill({ claim: 'a', anyOf: ['b'] }) } },
    'body.rule.claims must NOT have more than 10 items',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, rule: { claims: [{ claim: 'groups', anyOf: [] }] } },
    'body.rule.claims[0].anyOf must NOT have fewer than 1 items',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, rule: { claims: [{ claim: 'groups', anyOf: Array(21).fill('a') }] } },
    'body.rule.claims[0].anyOf must NOT have more than 20 items',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, rule: { claims: [{ claim: 'groups', anyOf: ['x'.repeat(257)] }] } },
    'body.rule.claims[0].anyOf[0] must NOT have more than 256 characters',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, rule: { claims: [{ claim: 'gro\nups', anyOf: ['a'] }] } },
    'body.rule.claims[0].claim must not contain control characters',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, rule: { claims: [{ claim: 'groups', anyOf: ['a'], all: true }] } },
    'body.rule.claims[0] has unexpected property all (allowed: claim, anyOf)',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, rule: { emailDomainInOrganization: 'yes' } },
    'body.rule.emailDomainInOrganization must be boolean',
  ],
  [
    'OrganizationSsoRequest',
    { ...body, hasClientSecret: true },
    'body has unexpected property hasClientSecret (allowed: issuer, clientId, clientSecret, scopes, rule)',
  ],
  ['OrganizationSso', answer, undefined],
  ['OrganizationSso', without(answer, 'hasClientSecret'), 'body.hasClientSecret is required'],
];

describe('the single sign-on schemas', () => {
  it.each(cases)('%s: answers %j as the document says', (name, value, expected) => {
    expect(zodSays(schemas[name]!, value)).toBe(expected);
    expect(check(name, value)).toBe(expected);
  });

  it('never name a client secret in the answer', () => {
    expect(Object.keys(OrganizationSso.shape)).not.toContain('clientSecret');
  });
});
