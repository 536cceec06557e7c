import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths as AdminPaths } from './gen/admin';
import type { components, paths as RestV2Paths } from './gen/rest-v2';

/**
 * A typed client of Eligo for integrators and Eligo's own pages: openapi-fetch over the types openapi-typescript
 * generates from the OpenAPI document the gateway serves (openapi/*.json, refreshed by `npm run
 * client:documents`; a gateway test fails while they differ). Every path, parameter, body and answer is typed;
 * answers come back as `{ data }` or `{ error }` with the HTTP `response`.
 */
export type { AdminPaths, RestV2Paths };
/** The named schemas of REST v2: `Schemas['VerificationResponse']`, ... */
export type Schemas = components['schemas'];

export interface EligoClientOptions {
  /** Where Eligo answers, e.g. `https://verify.example.com` (the clients add `/rest/v2` or `/rest/admin/v1`). */
  baseUrl: string;
  /** An account's access token (REST v2 token endpoints) or the operator token (admin API); none for the form's calls. */
  token?: string;
  /** Extra headers on every request (e.g. `Idempotency-Key` is better set per call). */
  headers?: Record<string, string>;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: ClientOptions['fetch'];
}

function optionsFor(options: EligoClientOptions, path: string): ClientOptions {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return {
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}${path}`,
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
}

/** REST v2: verifications and their steps, programs, organizations, reports, conversions. */
export function restV2Client(options: EligoClientOptions): Client<RestV2Paths> {
  return createClient<RestV2Paths>(optionsFor(options, '/rest/v2'));
}

/** The admin API, with the operator token. */
export function adminClient(options: EligoClientOptions): Client<AdminPaths> {
  return createClient<AdminPaths>(optionsFor(options, '/rest/admin/v1'));
}
