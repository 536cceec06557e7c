import type { z } from 'zod';
import { adminNotifierEndpoints } from './admin-notifier';
import { importOrganizations, OrganizationImportRow } from './admin-organization-import';
import { adminOrganizationEndpoints } from './admin-organizations';
import { adminParkedEventEndpoints } from './admin-parked-events';
import { adminPiiAccessEndpoints } from './admin-pii-access';
import { adminReviewEndpoints } from './admin-reviews';
import { adminVerificationEndpoints } from './admin-verifications';
import type { EndpointDefinition } from './define';

/**
 * The admin API's operations for staff work (operator token): the catalog's import and its add-school
 * queue, document reviews, any verification, the notifier's logs, parked events and the PII access log.
 */
export const adminStaffEndpoints: readonly EndpointDefinition[] = [
  importOrganizations,
  ...adminOrganizationEndpoints,
  ...adminVerificationEndpoints,
  ...adminReviewEndpoints,
  ...adminNotifierEndpoints,
  ...adminParkedEventEndpoints,
  ...adminPiiAccessEndpoints,
];

/** The NDJSON import's row, which the import's description names but no body states (it is streamed). */
export const adminStaffNamedSchemas: readonly z.ZodType[] = [OrganizationImportRow];
