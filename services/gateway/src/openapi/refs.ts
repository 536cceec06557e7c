import { ID_PATTERN } from '@eligo/vocabulary';

/** Small builders for the path files, so each operation reads as its statuses. */
export const ref = (kind: 'schemas' | 'responses', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

export const jsonBody = (schema: string, required = true) => ({
  required,
  content: { 'application/json': { schema: ref('schemas', schema) } },
});

export const jsonResponse = (description: string, schema: string) => ({
  description,
  content: { 'application/json': { schema: ref('schemas', schema) } },
});

export const errorResponse = (description: string, shape: 'ErrorResponse' | 'SystemErrorMessage') =>
  jsonResponse(description, shape);

export const idParameter = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description: `${description} (24 lowercase hex characters; any other value is answered 404)`,
  schema: { type: 'string', pattern: ID_PATTERN },
});
