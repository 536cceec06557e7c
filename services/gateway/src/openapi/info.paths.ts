export const infoPaths = {
  '/info': {
    get: {
      tags: ['info'],
      operationId: 'getInfo',
      summary: 'Build information of the service and of every module it reaches',
      security: [{ bearerToken: [] }],
      responses: {
        '200': {
          description: 'Build information',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/BuildInfo' } } },
        },
        '401': { $ref: '#/components/responses/Unauthorized' },
      },
    },
  },
  '/openapi.json': {
    get: {
      tags: ['info'],
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      responses: { '200': { description: 'The document', content: { 'application/json': {} } } },
    },
  },
} as const;
