import type { organizationsSsoV1 } from '@eligo/proto';
import type { OrganizationSsoBody, OrganizationSsoJson } from '../endpoints/admin-organization-sso';
import { present } from './program';

/** An organization's single sign-on between the admin API's JSON and the organizations service's messages. */

export function organizationSsoRequestToProto(
  organizationId: number,
  body: OrganizationSsoBody,
): organizationsSsoV1.SetOrganizationSsoRequest {
  return {
    organizationId,
    issuer: body.issuer,
    clientId: body.clientId,
    // Empty: the service keeps the stored secret.
    clientSecret: body.clientSecret ?? '',
    scopes: body.scopes ?? [],
    rule: {
      claims: (body.rule.claims ?? []).map((c) => ({ claim: c.claim, anyOf: c.anyOf })),
      emailDomainInOrganization: body.rule.emailDomainInOrganization ?? false,
    },
  };
}

export function organizationSsoToJson(sso: organizationsSsoV1.OrganizationSso): OrganizationSsoJson {
  const rule = present(sso.rule, 'rule');
  return {
    organizationId: sso.organizationId,
    issuer: sso.issuer,
    clientId: sso.clientId,
    hasClientSecret: sso.hasClientSecret,
    scopes: [...sso.scopes],
    rule: {
      claims: rule.claims.map((c) => ({ claim: c.claim, anyOf: [...c.anyOf] })),
      emailDomainInOrganization: rule.emailDomainInOrganization,
    },
    updated: present(sso.updatedAt, 'updatedAt').getTime(),
  };
}
