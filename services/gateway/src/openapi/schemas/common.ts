/** Error bodies and build information shared by every part of the API. */
export const commonSchemas = {
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
  InternalServerError: {
    type: 'object',
    description:
      'The ER of a 500: errorIds [internalServerError] and a generic message, whatever failed (the detail is ' +
      'only logged by the gateway).',
    required: ['errorIds', 'systemErrorMessage'],
    properties: {
      errorIds: { type: 'array', items: { type: 'string' }, const: ['internalServerError'] },
      systemErrorMessage: { type: 'string', const: 'Internal server error' },
    },
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
} as const;
