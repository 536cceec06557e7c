import { ConversionRequest, ConversionResponse, conversionEndpoints } from './conversion';
import { endpointDocument } from './openapi';
import {
  CallbackUri,
  NotifierEventTypes,
  programEndpoints,
  SendLinkRequest,
  VerificationLimitRequest,
  WebhookDeleteRequest,
  WebhookRequest,
} from './program';

/**
 * Every endpoint described by a definition (endpoints/define.ts), and what they add to the OpenAPI document:
 * openapi/document.ts merges `paths`, openapi/components.ts the named `schemas` (so the request validator
 * and the tests' response conformance know them too).
 */
export const endpointDefinitions = [...conversionEndpoints, ...programEndpoints] as const;

/** The schemas the definitions name (`.meta({ id })`), by that id: the keys type the validator's names. */
const namedSchemas = {
  ConversionRequest,
  ConversionResponse,
  CallbackUri,
  NotifierEventTypes,
  VerificationLimitRequest,
  WebhookRequest,
  WebhookDeleteRequest,
  SendLinkRequest,
};

const generated = endpointDocument(endpointDefinitions);
const ids = Object.keys(namedSchemas).sort().join(', ');
if (Object.keys(generated.schemas).sort().join(', ') !== ids)
  throw new Error(`the endpoints name the schemas ${Object.keys(generated.schemas).join(', ')}, not ${ids}`);

export const endpointPaths = generated.paths;
export const endpointSchemas = generated.schemas as Record<
  keyof typeof namedSchemas,
  Record<string, unknown>
>;
