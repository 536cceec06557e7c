export const infoPaths = {
  '/info': {
    get: {
      tags: ['info'],
      operationId: 'getInfo',
      summary: 'Build information of the service and of every module it reaches',
      description: 'Any valid token: an account token, an OAuth access token or the operator token.',
      security: [{ bearerToken: [] }, { oauthClientCredentials: [] }, { operatorToken: [] }],
      responses: {
        '200': {
          description: 'Build information',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/BuildInfo' } } },
        },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '503': { $ref: '#/components/responses/ServiceUnavailable' },
      },
    },
  },
  '/openapi.json': {
    get: {
      tags: ['info'],
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      responses: {
        '200': {
          description: 'The document',
          content: {
            'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } },
          },
        },
      },
    },
  },
} as const;
