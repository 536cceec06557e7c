import { z } from 'zod';
import { operatorToken } from './admin-common';
import { accountToken } from './common';
import { defineEndpoint } from './define';

/** What GET /info reports of each module (clients/module-info.ts reads it from each module's GetInfo). */
export const ModuleInfo = z
  .object({
    module: z.string().meta({ examples: ['programs'] }),
    status: z.enum(['SERVING', 'UNAVAILABLE']),
    version: z.string().optional(),
    gitCommit: z.string().optional(),
    runtimeVersion: z.string().optional(),
    startedAt: z.string().meta({ format: 'date-time' }).optional(),
    hostName: z.string().optional(),
  })
  .meta({ id: 'ModuleInfo' });

export const BuildInfo = z
  .object({
    name: z.literal('eligo'),
    apiVersion: z.string().meta({ examples: ['2.0.0'] }),
    version: z.string(),
    gitCommit: z.string().optional(),
    modules: z.array(ModuleInfo),
  })
  .meta({ id: 'BuildInfo' });

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
  security: [...accountToken, ...operatorToken],
  responses: {
    '200': { description: 'Build information', body: BuildInfo },
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
  // None: the document's own (no token) applies.
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
