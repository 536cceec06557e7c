import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import type { EndpointResponse } from './define';

/**
 * What the definitions of several resources state alike: the account token, the 24-hex path ids and the
 * error answers. The admin API's own (the operator token) are in endpoints/admin-common.ts.
 */

/** An access token of the account: a static token, or an OAuth 2.0 access token of its client credentials. */
export const accountToken = [{ bearerToken: [] }, { oauthClientCredentials: [] }] as const;

/** A path id of 24 hex characters, answered 404 without a call otherwise (validation/path-ids.ts). */
export const hexIdParameter = (description: string) =>
  z
    .string()
    .regex(new RegExp(ID_PATTERN))
    .meta({ description: `${description} (24 lowercase hex characters; any other value is answered 404)` });

/**
 * An error answer of the operation's own, ER ({errorIds, systemErrorMessage}) or SEM ({systemErrorMessage}),
 * by the name of its component (endpoints/errors.ts): each resource's definitions name only their own
 * schemas (the endpoint tests compare them with what the hand-written files declared).
 */
export const er = (description: string) =>
  ({ description, body: 'ErrorResponse' }) satisfies EndpointResponse;
export const sem = (description: string) =>
  ({ description, body: 'SystemErrorMessage' }) satisfies EndpointResponse;

/** The shared answers of an operation that reads a JSON body: it does not match, or it is too large. */
export const withBody = {
  '400': { shared: 'InvalidRequest' },
  '413': { shared: 'PayloadTooLarge' },
} satisfies Record<string, EndpointResponse>;

export const unavailable = { '503': { shared: 'ServiceUnavailable' } } satisfies Record<
  string,
  EndpointResponse
>;
