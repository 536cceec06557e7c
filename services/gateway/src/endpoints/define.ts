import type { z } from 'zod';

/**
 * One endpoint, described once: its path, operation, parameters, body and every response. The definition is
 * the single source of the route's path (routes/ register `expressPath(def)`), of the body's check and
 * TypeScript type (`z.infer` of `body`), and of the OpenAPI operation (endpoints/openapi.ts). See
 * docs/architecture.md, "Contracts".
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A response of the operation: its own description and body, or a shared response of the document. */
export type EndpointResponse =
  | {
      description: string;
      /** A zod schema (named ones, with `.meta({ id })`, become components) or an existing component's name. */
      body?: z.ZodType | string;
    }
  | {
      /** The name of a shared response under `#/components/responses` (e.g. ServiceUnavailable). */
      shared: string;
    };

export interface EndpointSpec<
  Params extends z.ZodObject | undefined = z.ZodObject | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** The OpenAPI form, `/conversion/verification/{verificationId}`; relative to the document's server. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  /** OpenAPI security requirements; `{}` among them lets a request without a token through. */
  security: readonly Record<string, readonly string[]>[];
  /** Path parameters, one property per `{name}` of the path; each property's description documents it. */
  params?: Params;
  /** The JSON body (required when declared, unless `bodyOptional`). */
  body?: Body;
  /** A request may leave the body out (`requestBody.required: false`); a body that is sent is still checked. */
  bodyOptional?: boolean;
  responses: Readonly<Record<string, EndpointResponse>>;
}

export type EndpointDefinition<
  Params extends z.ZodObject | undefined = z.ZodObject | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
> = Readonly<EndpointSpec<Params, Body>>;

/** The body type a definition accepts, once checked. */
export type BodyOf<D> =
  D extends EndpointDefinition<z.ZodObject | undefined, infer B extends z.ZodType> ? z.infer<B> : never;

/** The path parameters of a definition. */
export type ParamsOf<D> =
  D extends EndpointDefinition<infer P extends z.ZodObject, z.ZodType | undefined>
    ? z.infer<P>
    : Record<string, never>;

const PATH_PARAMETER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Checks the definition once, at module load: each `{name}` of the path is a property of `params` and the
 * other way round, and there is at least one response.
 */
export function defineEndpoint<
  Params extends z.ZodObject | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(spec: EndpointSpec<Params, Body>): EndpointDefinition<Params, Body> {
  const inPath = [...spec.path.matchAll(PATH_PARAMETER)].map((m) => m[1]!);
  const declared = Object.keys(spec.params?.shape ?? {});
  if (inPath.join() !== declared.join())
    throw new Error(
      `${spec.operationId}: the path's parameters (${inPath.join(', ')}) are not those declared (${declared.join(', ')})`,
    );
  if (Object.keys(spec.responses).length === 0) throw new Error(`${spec.operationId}: no responses`);
  if (spec.bodyOptional && spec.body === undefined)
    throw new Error(`${spec.operationId}: bodyOptional without a body`);
  return Object.freeze({ ...spec });
}

/** The Express form of the definition's path: `{verificationId}` becomes `:verificationId`. */
export function expressPath(definition: Pick<EndpointDefinition, 'path'>): string {
  return definition.path.replace(PATH_PARAMETER, ':$1');
}
