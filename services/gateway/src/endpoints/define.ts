import type { z } from 'zod';

/**
 * One endpoint, described once: its path, operation, parameters, body and every response. The definition is
 * the single source of the route's path (routes/ register `expressPath(def)`), of the body's check and
 * TypeScript type (`z.infer` of `body`), and of the OpenAPI operation (endpoints/openapi.ts). See
 * docs/architecture.md, "Contracts".
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A schema in a definition: a zod schema (named ones, with `.meta({ id })`, become components), the name of
 * an existing component, or (for bodies that are not JSON: CSV, form data, files) a JSON Schema as written.
 */
export type SchemaSource = z.ZodType | string | { readonly json: Readonly<Record<string, unknown>> };

/** A response header: its description and schema. */
export interface ResponseHeader {
  description?: string;
  schema: SchemaSource;
}

/** A response of the operation: its own description and body, or a shared response of the document. */
export type EndpointResponse =
  | {
      description: string;
      /** The JSON body. */
      body?: SchemaSource;
      /** Bodies of other media types (`text/csv; charset=utf-8`), after the JSON one. */
      content?: Readonly<Record<string, SchemaSource>>;
      headers?: Readonly<Record<string, ResponseHeader>>;
    }
  | {
      /** The name of a shared response under `#/components/responses` (e.g. ServiceUnavailable). */
      shared: string;
    };

/**
 * The servers a path can live under besides REST v2 (the document's default): each path item of theirs names
 * it, so that full paths come out right (endpoints/openapi.ts resolves them against the public base URL).
 */
export type ServerName = 'admin' | 'oauth' | 'uploads';

export interface EndpointSpec<
  Params extends z.ZodObject | undefined = z.ZodObject | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodObject | undefined = z.ZodObject | undefined,
> {
  method: HttpMethod;
  /** The OpenAPI form, `/conversion/verification/{verificationId}`; relative to the document's server. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  deprecated?: boolean;
  /** Where the path lives when not under REST v2. */
  server?: ServerName;
  /**
   * OpenAPI security requirements; `{}` among them lets a request without a token through, and none (`[]`)
   * means the operation takes no token.
   */
  security: readonly Record<string, readonly string[]>[];
  /** Path parameters, one property per `{name}` of the path; each property's description documents it. */
  params?: Params;
  /**
   * Query parameters, one property each (endpoints/query.ts builds them): the property's schema reads the raw
   * value (a string, or an array when repeated) and its meta documents the parameter (description, and
   * `allowEmptyValue`, `style`, `explode` where they apply); `requestQuery` checks them.
   */
  query?: Query;
  /** A query parameter the operation does not have, or an empty value, is refused (the admin API's lists). */
  strictQuery?: boolean;
  /** The JSON body (required when declared, unless `bodyOptional`). */
  body?: Body;
  /** A request may leave the body out (`requestBody.required: false`); a body that is sent is still checked. */
  bodyOptional?: boolean;
  /** Request bodies of other media types (multipart/form-data, text/csv), checked by their routes. */
  bodyContent?: Readonly<Record<string, SchemaSource>>;
  /** The request body's description, where one is needed (several media types). */
  bodyDescription?: string;
  responses: Readonly<Record<string, EndpointResponse>>;
}

export type EndpointDefinition<
  Params extends z.ZodObject | undefined = z.ZodObject | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodObject | undefined = z.ZodObject | undefined,
> = Readonly<EndpointSpec<Params, Body, Query>>;

/** The body type a definition accepts, once checked. */
export type BodyOf<D> =
  D extends EndpointDefinition<z.ZodObject | undefined, infer B extends z.ZodType, z.ZodObject | undefined>
    ? z.infer<B>
    : never;

/** The query parameters a definition reads, once checked (`requestQuery` leaves them in res.locals.query). */
export type QueryOf<D> =
  D extends EndpointDefinition<z.ZodObject | undefined, z.ZodType | undefined, infer Q extends z.ZodObject>
    ? z.output<Q>
    : never;

/** The path parameters of a definition. */
export type ParamsOf<D> =
  D extends EndpointDefinition<infer P extends z.ZodObject, z.ZodType | undefined, z.ZodObject | undefined>
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
  Query extends z.ZodObject | undefined = undefined,
>(spec: EndpointSpec<Params, Body, Query>): EndpointDefinition<Params, Body, Query> {
  const inPath = [...spec.path.matchAll(PATH_PARAMETER)].map((m) => m[1]!);
  const declared = Object.keys(spec.params?.shape ?? {});
  if (inPath.join() !== declared.join())
    throw new Error(
      `${spec.operationId}: the path's parameters (${inPath.join(', ')}) are not those declared (${declared.join(', ')})`,
    );
  if (Object.keys(spec.responses).length === 0) throw new Error(`${spec.operationId}: no responses`);
  if (spec.bodyOptional && spec.body === undefined)
    throw new Error(`${spec.operationId}: bodyOptional without a body`);
  if (spec.strictQuery && spec.query === undefined)
    throw new Error(`${spec.operationId}: strictQuery without query parameters`);
  return Object.freeze({ ...spec });
}

/** The Express form of the definition's path: `{verificationId}` becomes `:verificationId`. */
export function expressPath(definition: Pick<EndpointDefinition, 'path'>): string {
  return definition.path.replace(PATH_PARAMETER, ':$1');
}
