/** Shared schemas, responses and security schemes of the OpenAPI document. */
export const components = {
  securitySchemes: {
    bearerToken: {
      type: 'http',
      scheme: 'bearer',
      description: 'An access token of the account (or the operator token). Shown once at creation.',
    },
  },
  schemas: {
    ErrorResponse: {
      type: 'object',
      description: 'ER: error ids plus a message for integrators (not for end users).',
      required: ['errorIds', 'systemErrorMessage'],
      properties: {
        errorIds: { type: 'array', items: { type: 'string' } },
        systemErrorMessage: { type: 'string' },
      },
    },
    SystemErrorMessage: {
      type: 'object',
      description: 'SEM: only a message for integrators.',
      required: ['systemErrorMessage'],
      properties: { systemErrorMessage: { type: 'string' } },
    },
    ModuleInfo: {
      type: 'object',
      required: ['module', 'status'],
      properties: {
        module: { type: 'string', examples: ['programs'] },
        status: { type: 'string', enum: ['SERVING', 'UNAVAILABLE'] },
        version: { type: 'string' },
        gitCommit: { type: 'string' },
        runtimeVersion: { type: 'string' },
        startedAt: { type: 'string', format: 'date-time' },
        hostName: { type: 'string' },
      },
    },
    BuildInfo: {
      type: 'object',
      required: ['name', 'apiVersion', 'version', 'modules'],
      properties: {
        name: { type: 'string', const: 'eligo' },
        apiVersion: { type: 'string', examples: ['2.0.0'] },
        version: { type: 'string' },
        gitCommit: { type: 'string' },
        modules: { type: 'array', items: { $ref: '#/components/schemas/ModuleInfo' } },
      },
    },
  },
  responses: {
    Unauthorized: {
      description: 'Missing or invalid bearer token',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/SystemErrorMessage' } } },
    },
    PayloadTooLarge: {
      description: 'Request body larger than the configured limit (ELIGO_HTTP_BODY_LIMIT)',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    },
  },
} as const;
