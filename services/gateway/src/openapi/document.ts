import { components } from './components';
import { infoPaths } from './info.paths';

/**
 * The REST contract (OpenAPI 3.1) served at /rest/v2/openapi.json. Each resource adds its paths in its own
 * file beside this one; admin endpoints (operator token, not part of v2) carry the "admin" tag.
 */
export function openApiDocument(publicBaseUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Eligo REST API',
      version: '2.0.0',
      description:
        'Identity eligibility verification. A 200 status does not mean a verification succeeded: read currentStep. ' +
        'Error bodies are ER {errorIds, systemErrorMessage} or SEM {systemErrorMessage}.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: `${publicBaseUrl}/rest/v2` }],
    tags: [
      { name: 'info', description: 'Service information' },
      {
        name: 'admin',
        description: 'Operator API under /rest/admin/v1 (operator token; not part of REST v2)',
      },
    ],
    security: [],
    paths: { ...infoPaths },
    components,
  };
}
