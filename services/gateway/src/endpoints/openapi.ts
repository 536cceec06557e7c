import { z } from 'zod';
import type { EndpointDefinition, EndpointResponse } from './define';

type Json = Record<string, unknown>;

/** What definitions add to the OpenAPI document: path items, and the named schemas they refer to. */
export interface EndpointDocument {
  paths: Record<string, Json>;
  /** Schemas named with `.meta({ id })`, for `components.schemas`. */
  schemas: Record<string, Json>;
}

const COMPONENT = '#/components/schemas/';

/**
 * The OpenAPI 3.1 path items of the definitions. Zod schemas become JSON Schema 2020-12 (`z.toJSONSchema`, the
 * input form: what a client sends or reads, so a plain z.object() leaves other properties open and
 * z.strictObject() closes them); a schema named with `.meta({ id })` becomes `#/components/schemas/<id>`
 * wherever it appears, so the document stays readable. Two different schemas under one id are refused.
 */
export function endpointDocument(definitions: readonly EndpointDefinition[]): EndpointDocument {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {};
  const toSchema = (schema: z.ZodType): Json => {
    const { $defs, ...root } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Json;
    delete root.$schema;
    for (const [id, named] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const component = componentRefs(named) as Json;
      const known = schemas[id];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(component))
        throw new Error(`two different schemas are named ${id}`);
      schemas[id] = component;
    }
    return componentRefs(root) as Json;
  };

  for (const definition of definitions) {
    const item = (paths[definition.path] ??= {});
    if (item[definition.method] !== undefined)
      throw new Error(`${definition.method.toUpperCase()} ${definition.path} is defined twice`);
    const parameters = pathParameters(definition, toSchema);
    if (parameters.length > 0) {
      if (item.parameters !== undefined && JSON.stringify(item.parameters) !== JSON.stringify(parameters))
        throw new Error(`${definition.path}: the methods declare different path parameters`);
      item.parameters = parameters;
    }
    item[definition.method] = {
      tags: [...definition.tags],
      operationId: definition.operationId,
      summary: definition.summary,
      ...(definition.description !== undefined ? { description: definition.description } : {}),
      security: definition.security.map((requirement) => ({ ...requirement })),
      ...(definition.body !== undefined
        ? {
            requestBody: {
              required: definition.bodyOptional !== true,
              content: jsonContent(toSchema(definition.body)),
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(definition.responses).map(([status, response]) => [
          status,
          responseObject(response, toSchema),
        ]),
      ),
    };
  }
  return { paths, schemas };
}

function pathParameters(definition: EndpointDefinition, toSchema: (schema: z.ZodType) => Json): Json[] {
  const shape = (definition.params?.shape ?? {}) as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, schema]) => {
    const { description, ...rest } = toSchema(schema);
    if (typeof description !== 'string')
      throw new Error(`${definition.operationId}: the path parameter ${name} has no description`);
    return { name, in: 'path', required: true, description, schema: rest };
  });
}

function responseObject(response: EndpointResponse, toSchema: (schema: z.ZodType) => Json): Json {
  if ('shared' in response) return { $ref: `#/components/responses/${response.shared}` };
  const { description, body } = response;
  if (body === undefined) return { description };
  const schema = typeof body === 'string' ? { $ref: `${COMPONENT}${body}` } : toSchema(body);
  return { description, content: jsonContent(schema) };
}

const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

/** z.toJSONSchema refers to named schemas as `#/$defs/<id>`; in the document they are components. */
function componentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(componentRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? `${COMPONENT}${inner.slice('#/$defs/'.length)}`
        : componentRefs(inner),
    ]),
  );
}
