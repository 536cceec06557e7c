/** Build information (GET /info); the error bodies are endpoints/errors.ts. */
export const commonSchemas = {
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
