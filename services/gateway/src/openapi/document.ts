import { endpointPaths } from '../endpoints';
import { withIdempotencyKey } from './idempotency';
import { withRateLimits } from './rate-limits';
import { withGatewayAnswers } from './gateway-answers';
import { withStaffAccess } from './staff-access';
import { components } from './components';
import { webhooks } from './webhooks';

/**
 * The REST contract (OpenAPI 3.1) served at /rest/v2/openapi.json. Each resource adds its paths in its own
 * file beside this one. The default server is REST v2; the admin API (tag "admin"), the OAuth token
 * endpoint (tag "oauth") and the document upload URLs (tag "upload") live outside it and name their own
 * servers per path.
 */
export function openApiDocument(publicBaseUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Eligo REST API',
      version: '2.0.0',
      description:
        'Identity eligibility verification. A 200 status does not mean a verification succeeded: read currentStep. ' +
        'Error bodies are ER {errorIds, systemErrorMessage} or SEM {systemErrorMessage}. ' +
        `A rendered reference of this document is at ${publicBaseUrl}/rest/v2/docs/.`,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: `${publicBaseUrl}/rest/v2` }],
    tags: [
      { name: 'info', description: 'Service information' },
      {
        name: 'verification',
        description:
          'The verification flow: start, steps, state (no token: the verificationId is unguessable), and the ' +
          'token endpoints for details, history, metadata and webhooks',
      },
      { name: 'program', description: 'Program administration with an account token' },
      {
        name: 'organization',
        description:
          'Organization search and add-school requests (no token: the verification form calls them)',
      },
      {
        name: 'report',
        description:
          'Verification reports (CSV) with an account token that has the REPORTER role; personal information ' +
          'also needs the PII role',
      },
      {
        name: 'conversion',
        description: 'Conversion tracking against a verification (token optional)',
      },
      {
        name: 'reverification',
        description: 'Bulk re-verification with an account token that has the BULK_VERIFIER role',
      },
      { name: 'oauth', description: 'OAuth 2.0 client credentials under /rest/oauth' },
      {
        name: 'upload',
        description:
          'The upload URLs of the docUpload step’s form A, under /uploads (no token: each URL works once)',
      },
      {
        name: 'admin',
        description:
          'Operator API under /rest/admin/v1 (the operator token, or a staff session whose role may call the ' +
          'operation: x-staff-roles; not part of REST v2)',
      },
    ],
    security: [],
    paths: withRateLimits(
      withIdempotencyKey(
        withGatewayAnswers(
          withStaffAccess({
            ...endpointPaths(publicBaseUrl),
          }),
        ),
      ),
    ),
    webhooks: webhooks,
    components: components(publicBaseUrl),
  };
}
