import { z } from 'zod';
import type { EndpointDefinition, EndpointResponse, SchemaSource, ServerName } from './define';

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
export function endpointDocument(
  definitions: readonly EndpointDefinition[],
  publicBaseUrl: string,
  /** Named schemas the document states although no definition names them (webhook payloads). */
  alsoNamed: readonly z.ZodType[] = [],
): EndpointDocument {
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
  const source = (schema: SchemaSource): Json =>
    typeof schema === 'string'
      ? { $ref: `${COMPONENT}${schema}` }
      : 'json' in schema
        ? structuredClone(schema.json as Json)
        : toSchema(schema as z.ZodType);

  for (const schema of alsoNamed) {
    if (typeof z.globalRegistry.get(schema)?.id !== 'string') throw new Error('a schema named without an id');
    // Held in an object, the named schema is a $def (a component) rather than the root.
    toSchema(z.object({ named: schema }));
  }
  for (const definition of definitions) {
    const servers = definition.server ? SERVERS[definition.server](publicBaseUrl) : undefined;
    const item = (paths[definition.path] ??= servers ? { servers } : {});
    if (JSON.stringify(item.servers) !== JSON.stringify(servers))
      throw new Error(`${definition.path}: the methods name different servers`);
    if (item[definition.method] !== undefined)
      throw new Error(`${definition.method.toUpperCase()} ${definition.path} is defined twice`);
    const parameters = pathParameters(definition, toSchema);
    if (parameters.length > 0) {
      if (item.parameters !== undefined && JSON.stringify(item.parameters) !== JSON.stringify(parameters))
        throw new Error(`${definition.path}: the methods declare different path parameters`);
      item.parameters = parameters;
    }
    const query = queryParameters(definition, toSchema);
    const content = {
      ...(definition.body !== undefined ? jsonContent(toSchema(definition.body)) : {}),
      ...mediaTypes(definition.bodyContent, source),
    };
    item[definition.method] = {
      tags: [...definition.tags],
      operationId: definition.operationId,
      ...(definition.deprecated ? { deprecated: true } : {}),
      summary: definition.summary,
      ...(definition.description !== undefined ? { description: definition.description } : {}),
      // No requirement (`security: []`, no token) is stated by leaving `security` out: the document's own
      // (none) applies, and readers of the document take an operation's `security` as "takes a token".
      ...(definition.security.length > 0
        ? { security: definition.security.map((requirement) => ({ ...requirement })) }
        : {}),
      ...(query.length > 0 ? { parameters: query } : {}),
      ...(Object.keys(content).length > 0
        ? {
            requestBody: {
              ...(definition.bodyDescription !== undefined
                ? { description: definition.bodyDescription }
                : {}),
              required: definition.bodyOptional !== true,
              content,
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(definition.responses).map(([status, response]) => [
          status,
          responseObject(response, source),
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

/** Where the paths of the other servers live (see ServerName). */
const SERVERS: Record<ServerName, (publicBaseUrl: string) => Json[]> = {
  admin: (base) => [{ url: `${base}/rest/admin/v1`, description: 'Admin API (operator token)' }],
  oauth: (base) => [{ url: `${base}/rest/oauth`, description: 'OAuth 2.0 authorization server' }],
  uploads: (base) => [{ url: base, description: 'Upload URLs (outside the REST API; no token)' }],
};

/** What a query parameter's meta says of the parameter rather than of its schema. */
const PARAMETER_KEYS = ['description', 'allowEmptyValue', 'style', 'explode', 'deprecated'] as const;

function queryParameters(definition: EndpointDefinition, toSchema: (schema: z.ZodType) => Json): Json[] {
  const shape = (definition.query?.shape ?? {}) as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, schema]) => {
    const json = toSchema(schema);
    const parameter: Json = { name, in: 'query' };
    if (!schema.safeParse(undefined).success) parameter.required = true;
    for (const key of PARAMETER_KEYS)
      if (json[key] !== undefined) {
        parameter[key] = json[key];
        delete json[key];
      }
    return { ...parameter, schema: json };
  });
}

function responseObject(response: EndpointResponse, source: (schema: SchemaSource) => Json): Json {
  if ('shared' in response) return { $ref: `#/components/responses/${response.shared}` };
  const { description, body, content, headers } = response;
  const media = { ...(body !== undefined ? jsonContent(source(body)) : {}), ...mediaTypes(content, source) };
  return {
    description,
    ...(headers !== undefined
      ? {
          headers: Object.fromEntries(
            Object.entries(headers).map(([name, header]) => [
              name,
              {
                ...(header.description !== undefined ? { description: header.description } : {}),
                schema: source(header.schema),
              },
            ]),
          ),
        }
      : {}),
    ...(Object.keys(media).length > 0 ? { content: media } : {}),
  };
}

function mediaTypes(
  content: Readonly<Record<string, SchemaSource>> | undefined,
  source: (schema: SchemaSource) => Json,
): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(content ?? {}).map(([type, schema]) => [type, { schema: source(schema) }]),
  );
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
