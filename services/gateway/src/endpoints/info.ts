import { defineEndpoint } from './define';

/**
 * Service information (REST v2), described once: build information, and this document. The route
 * (routes/info.ts) registers them by these paths.
 */
const tags = ['info'] as const;

export const getInfo = defineEndpoint({
  method: 'get',
  path: '/info',
  operationId: 'getInfo',
  summary: 'Build information of the service and of every module it reaches',
  description: 'Any valid token: an account token, an OAuth access token or the operator token.',
  tags,
  security: [{ bearerToken: [] }, { oauthClientCredentials: [] }, { operatorToken: [] }],
  responses: {
    '200': { description: 'Build information', body: 'BuildInfo' },
    '401': { shared: 'Unauthorized' },
    '503': { shared: 'ServiceUnavailable' },
  },
});

export const getOpenApiDocument = defineEndpoint({
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApiDocument',
  summary: 'This OpenAPI 3.1 document',
  tags,
  // None: the document's own (no token) applies (endpoints/no-token.ts).
  security: [],
  responses: {
    '200': {
      description: 'The document',
      // What every OpenAPI document has: the rest is the OpenAPI specification's to describe.
      body: { json: { type: 'object', required: ['openapi', 'info', 'paths'] } },
    },
  },
});

export const infoEndpoints = [getInfo, getOpenApiDocument] as const;
