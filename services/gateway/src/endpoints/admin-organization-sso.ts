import { z } from 'zod';
import { described, plainText } from '../openapi/schemas/text';
import { adminOperation, unauthorized } from './admin-common';
import { er, withBody } from './common';
import { defineEndpoint, type BodyOf } from './define';
import { httpUrl } from './program-input-rules';
import { fromStringSchema } from './schemas';
import { epochMs, integerValue } from './schemas-numbers';

/**
 * An organization's single sign-on under /rest/admin/v1/organizations/{organizationId}/sso: the OpenID Connect
 * client the organizations service signs people on with (issuer, client id, the write-only client secret,
 * scopes) and the rule over the claims that makes a person eligible (docs/operations.md, "Single sign-on with
 * an organization"). The limits are the service's (services/organizations/src/domain/sso-settings.ts,
 * sso-rule.ts). Routes: routes/admin/organization-sso.ts.
 */

/**
 * An absolute http or https URL in ASCII without query or fragment: an issuer identifier (OpenID Connect
 * Discovery 1.0, section 2). The path characters are RFC 3986's, as in program-input-rules.ts, without `?`.
 */
const PATH = "(?:/(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?";
const ISSUER = httpUrl(
  PATH,
  'must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or ' +
    'password), without query or fragment',
);
/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE = described(
  '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,64}$',
  'must be 1 to 64 printable ASCII characters without space, " or \\',
);
const text = (max: number) => fromStringSchema(plainText(max, 1));

export const SsoClaimRule = z
  .strictObject({
    claim: text(256).meta({
      description: 'The claim’s name as the provider spells it (e.g. eduPersonAffiliation, groups).',
    }),
    anyOf: z.array(text(256)).min(1).max(20).meta({
      description: 'The claim holds when it contains one of these values, compared case-insensitively.',
    }),
  })
  .meta({
    id: 'SsoClaimRule',
    description:
      'Holds when the claim (a string, or an array of strings, of the ID token or the UserInfo answer) ' +
      'contains one of anyOf.',
  });

const ruleDescription =
  'Eligible when EVERY claim rule holds and, with emailDomainInOrganization, the email claim (whose ' +
  'email_verified is not false) is at one of the organization’s catalog domains or under one. A rule with no ' +
  'claim rule and emailDomainInOrganization false proves nothing: 400.';

export const SsoRuleInput = z
  .strictObject({
    claims: z.array(SsoClaimRule).max(10).optional().meta({ description: 'Left out: none.' }),
    emailDomainInOrganization: z.boolean().optional().meta({ description: 'Left out: false.' }),
  })
  .meta({ id: 'SsoRuleInput', description: ruleDescription });

export const OrganizationSsoRequest = z
  .strictObject({
    issuer: fromStringSchema(ISSUER).meta({
      description:
        'The OpenID provider’s issuer identifier, where /.well-known/openid-configuration is read (at the ' +
        'first sign-on, not here). https; plain http only for an IP address inside ELIGO_WEBHOOK_ALLOW_CIDRS, ' +
        'and an IP address host must be public unless that list holds it (else 400).',
    }),
    clientId: text(256).meta({ description: 'The client id Eligo is registered under at the provider.' }),
    clientSecret: text(1024)
      .optional()
      .meta({
        description:
          'Write-only: stored encrypted, never answered (hasClientSecret says whether one is stored). Left out, ' +
          'the stored one is kept; none at all: a public client (PKCE only).',
      }),
    scopes: z
      .array(fromStringSchema({ type: 'string', pattern: SCOPE }))
      .max(20)
      .optional()
      .meta({ description: 'Scopes to ask for besides openid, which is always asked for first.' }),
    rule: SsoRuleInput,
  })
  .meta({ id: 'OrganizationSsoRequest' });

export const OrganizationSso = z
  .object({
    organizationId: integerValue(),
    issuer: z.string(),
    clientId: z.string(),
    hasClientSecret: z.boolean(),
    scopes: z.array(z.string()).meta({ description: 'openid first.' }),
    rule: z
      .object({
        claims: z.array(z.object({ claim: z.string(), anyOf: z.array(z.string()) })),
        emailDomainInOrganization: z.boolean(),
      })
      .meta({ description: ruleDescription }),
    updated: epochMs().meta({ description: 'When the settings last changed.' }),
  })
  .meta({
    id: 'OrganizationSso',
    description: "An organization's OpenID Connect client and eligibility rule; never the client secret.",
  });

export type OrganizationSsoBody = BodyOf<typeof putOrganizationSso>;
export type OrganizationSsoJson = z.input<typeof OrganizationSso>;

const params = z.object({
  organizationId: integerValue()
    .min(1)
    .meta({ description: 'The organization id (a positive integer; any other value is answered 404)' }),
});
const noSso = er(
  'No such organization (errorIds [noOrganization]), or the organization has no single sign-on (errorIds [])',
);

export const putOrganizationSso = defineEndpoint({
  ...adminOperation,
  method: 'put',
  path: '/organizations/{organizationId}/sso',
  operationId: 'adminPutOrganizationSso',
  summary: "Sets the organization's single sign-on: its OpenID Connect client and eligibility rule",
  description:
    'Replaces the whole setting but the client secret, which is kept when left out. A sign-on already begun ' +
    'finishes with the setting as it is at its finish.',
  params,
  body: OrganizationSsoRequest,
  responses: {
    '200': { description: 'The setting as stored, without the secret', body: OrganizationSso },
    ...withBody,
    '400': er(
      'The body does not match its schema, or the organizations service refuses what the schema cannot ' +
        'judge (errorIds [invalidRequest]; systemErrorMessage names the field): a rule that checks nothing, ' +
        'plain http to an address ELIGO_WEBHOOK_ALLOW_CIDRS does not open, an IP address host that is not ' +
        'public',
    ),
    ...unauthorized,
    '404': er('No such organization (errorIds [noOrganization])'),
  },
});

export const getOrganizationSso = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/organizations/{organizationId}/sso',
  operationId: 'adminGetOrganizationSso',
  summary: "The organization's single sign-on, without the client secret",
  params,
  responses: {
    '200': { description: 'The setting', body: OrganizationSso },
    ...unauthorized,
    '404': noSso,
  },
});

export const deleteOrganizationSso = defineEndpoint({
  ...adminOperation,
  method: 'delete',
  path: '/organizations/{organizationId}/sso',
  operationId: 'adminDeleteOrganizationSso',
  summary: "Removes the organization's single sign-on, and the sign-ons in progress with it",
  params,
  responses: {
    '204': { description: 'Removed' },
    ...unauthorized,
    '404': noSso,
  },
});

export const adminOrganizationSsoEndpoints = [
  putOrganizationSso,
  getOrganizationSso,
  deleteOrganizationSso,
] as const;
