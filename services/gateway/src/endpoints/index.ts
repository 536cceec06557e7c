import { adminAccountEndpoints } from './admin-accounts';
import { adminAccountListEndpoints } from './admin-account-lists';
import { adminAuditEndpoints } from './admin-audit';
import { adminEligibilityListEndpoints, adminEligibilityListNamedSchemas } from './admin-eligibility-lists';
import { adminOrganizationSsoEndpoints } from './admin-organization-sso';
import { adminProgramEndpoints } from './admin-programs';
import { adminProgramListEndpoints } from './admin-program-lists';
import { adminStaffEndpoints, adminStaffNamedSchemas } from './admin-staff';
import { adminStaffUserEndpoints } from './admin-staff-users';
import { conversionEndpoints } from './conversion';
import { docUploadEndpoints } from './doc-upload';
import { reportEndpoints } from './report';
import type { z } from 'zod';
import type { EndpointDefinition } from './define';
import { endpointDocument } from './openapi';
import { infoEndpoints } from './info';
import { oauthEndpoints } from './oauth';
import { organizationEndpoints } from './organization';
import { programResponseSchemas } from './program-responses';
import { ErrorResponse, InternalServerError, SystemErrorMessage } from './errors';
import { programEndpoints } from './program';
import { verificationEndpoints, verificationNamedSchemas } from './verification-endpoints';

/**
 * Every endpoint described by a definition (endpoints/define.ts), one list per resource, and what they add
 * to the OpenAPI document: openapi/document.ts merges `endpointPaths`, openapi/components.ts the named
 * `endpointSchemas` (so the request validator and the tests' response conformance know them too).
 */
export const endpointDefinitions: readonly EndpointDefinition[] = [
  ...conversionEndpoints,
  ...programEndpoints,
  // verification: verification, steps, marketplace, reverify
  ...verificationEndpoints,
  // documents and reports: docUpload, uploads, report
  ...docUploadEndpoints,
  ...reportEndpoints,
  // organization, info, oauth
  ...organizationEndpoints,
  ...infoEndpoints,
  ...oauthEndpoints,
  // admin: accounts and programs
  ...adminAccountEndpoints,
  ...adminProgramEndpoints,
  // admin: the staff console's lists of accounts, tokens and programs
  ...adminAccountListEndpoints,
  ...adminProgramListEndpoints,
  // admin: a program's customer eligibility list
  ...adminEligibilityListEndpoints,
  // admin: an organization's single sign-on
  ...adminOrganizationSsoEndpoints,
  // admin: organizations, reviews, verifications, notifier, parked events, reports
  ...adminStaffEndpoints,
  // admin: staff identities and the audit log
  ...adminStaffUserEndpoints,
  ...adminAuditEndpoints,
];

/**
 * Named schemas (`.meta({ id })`) the document states although no definition above names them: schemas the
 * hand-written paths still refer to by name, and the webhooks' payloads.
 */
export const alsoNamedSchemas: readonly z.ZodType[] = [
  // verification: verification, steps, marketplace, reverify
  ...verificationNamedSchemas,
  // documents and reports: docUpload, uploads, report
  // organization, info, oauth, program responses
  ...programResponseSchemas,
  // admin: accounts and programs
  // admin: organizations, reviews, verifications, notifier, parked events, reports
  ...adminStaffNamedSchemas,
  ...adminEligibilityListNamedSchemas,
  // common: errors, webhooks
  ErrorResponse,
  SystemErrorMessage,
  InternalServerError,
];

/** The path items of the definitions; other servers' paths name theirs under `publicBaseUrl`. */
export function endpointPaths(publicBaseUrl: string): Record<string, Record<string, unknown>> {
  return endpointDocument(endpointDefinitions, publicBaseUrl, alsoNamedSchemas).paths;
}

/** The schemas the definitions name (`.meta({ id })`), by that id: they do not depend on the base URL. */
export const endpointSchemas: Record<string, Record<string, unknown>> = endpointDocument(
  endpointDefinitions,
  'https://eligo.invalid',
  alsoNamedSchemas,
).schemas;
