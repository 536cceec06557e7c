import { organizationsSsoV1 } from '@eligo/proto';
import type { OrganizationSsoView } from '../app/organization-sso';
import type { SsoOutcome } from '../app/sso-sign-on';
import type { SsoSettingsInput } from '../domain/sso-settings';
import type { SsoRule } from '../domain/sso-rule';

const { SsoOutcome: Outcome } = organizationsSsoV1;

export function ssoSettingsFromProto(req: organizationsSsoV1.SetOrganizationSsoRequest): SsoSettingsInput {
  return {
    issuer: req.issuer,
    clientId: req.clientId,
    clientSecret: req.clientSecret,
    scopes: req.scopes,
    rule: req.rule && {
      claims: req.rule.claims.map((c) => ({ claim: c.claim, anyOf: c.anyOf })),
      emailDomainInOrganization: req.rule.emailDomainInOrganization,
    },
  };
}

function ruleToProto(rule: SsoRule): organizationsSsoV1.SsoRule {
  return {
    claims: rule.claims.map((c) => ({ claim: c.claim, anyOf: [...c.anyOf] })),
    emailDomainInOrganization: rule.emailDomainInOrganization,
  };
}

export function organizationSsoToProto(sso: OrganizationSsoView): organizationsSsoV1.OrganizationSso {
  return {
    organizationId: sso.organizationId,
    issuer: sso.issuer,
    clientId: sso.clientId,
    hasClientSecret: sso.hasClientSecret,
    scopes: [...sso.scopes],
    rule: ruleToProto(sso.rule),
    updatedAt: sso.updatedAt,
  };
}

export const ssoOutcomeToProto: Record<SsoOutcome, organizationsSsoV1.SsoOutcome> = {
  ELIGIBLE: Outcome.SSO_OUTCOME_ELIGIBLE,
  INELIGIBLE: Outcome.SSO_OUTCOME_INELIGIBLE,
  FAILED: Outcome.SSO_OUTCOME_FAILED,
};
