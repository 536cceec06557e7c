import { conversionEndpoints } from './conversion';
import type { EndpointDefinition } from './define';
import { endpointDocument } from './openapi';
import { programEndpoints } from './program';

/**
 * Every endpoint described by a definition (endpoints/define.ts), one list per resource, and what they add
 * to the OpenAPI document: openapi/document.ts merges `endpointPaths`, openapi/components.ts the named
 * `endpointSchemas` (so the request validator and the tests' response conformance know them too).
 */
export const endpointDefinitions: readonly EndpointDefinition[] = [
  ...conversionEndpoints,
  ...programEndpoints,
];

/** The path items of the definitions; other servers' paths name theirs under `publicBaseUrl`. */
export function endpointPaths(publicBaseUrl: string): Record<string, Record<string, unknown>> {
  return endpointDocument(endpointDefinitions, publicBaseUrl).paths;
}

/** The schemas the definitions name (`.meta({ id })`), by that id: they do not depend on the base URL. */
export const endpointSchemas: Record<string, Record<string, unknown>> = endpointDocument(
  endpointDefinitions,
  'https://eligo.invalid',
).schemas;
