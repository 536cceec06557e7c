import { z } from 'zod';
import { plainText } from '../openapi/schemas/text';
import { defineEndpoint, type EndpointResponse } from './define';
import { integerValue } from './schemas-numbers';
import { fromStringSchema } from './schemas';

/**
 * The OAuth 2.0 client-credentials token endpoint (RFC 6749 section 4.4) at /rest/oauth/token, described once.
 * The route (routes/oauth.ts) registers it by this path and checks its parameters with OAuthTokenRequest
 * itself: its refusals are the RFC's error body (OAuthError), not ER.
 */

export const OAuthTokenRequest = z
  .object({
    grant_type: z.literal('client_credentials'),
    client_id: fromStringSchema(plainText(512)).optional(),
    client_secret: fromStringSchema(plainText(512)).optional(),
    scope: fromStringSchema(plainText(512))
      .meta({ description: 'Accepted and ignored: tokens carry no scopes.' })
      .optional(),
  })
  .meta({
    id: 'OAuthTokenRequest',
    description:
      'Form parameters (application/x-www-form-urlencoded; JSON is accepted too). The client authenticates ' +
      'with HTTP Basic (client_id:client_secret) or with client_id and client_secret here, not both. ' +
      'Unrecognised parameters are ignored, as RFC 6749 section 3.1 requires; each parameter at most once.',
  });

export const OAuthTokenResponse = z
  .object({
    access_token: z
      .string()
      .meta({ description: 'Use as `Authorization: Bearer <access_token>` on the token endpoints.' }),
    token_type: z.literal('Bearer'),
    expires_in: integerValue().meta({ description: 'Lifetime in seconds.' }),
  })
  .meta({ id: 'OAuthTokenResponse' });

export const OAuthError = z
  .object({
    error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type']),
    error_description: z.string().optional(),
  })
  .meta({ id: 'OAuthError', description: 'RFC 6749 section 5.2 error body.' });

const oauthError = (description: string) => ({ description, body: OAuthError }) satisfies EndpointResponse;

export const issueOAuthToken = defineEndpoint({
  method: 'post',
  path: '/token',
  operationId: 'issueOAuthToken',
  summary: 'Client-credentials grant (RFC 6749 section 4.4): a short-lived access token',
  description:
    'The access token is used like a static token (`Authorization: Bearer <access_token>`) until it ' +
    'expires or its static token is revoked.',
  tags: ['oauth'],
  server: 'oauth',
  security: [{ clientBasic: [] }, {}],
  body: OAuthTokenRequest,
  bodyContent: { 'application/x-www-form-urlencoded': OAuthTokenRequest },
  responses: {
    '200': {
      description: 'An access token',
      body: OAuthTokenResponse,
      headers: { 'Cache-Control': { description: 'no-store', schema: z.literal('no-store') } },
    },
    '400': oauthError(
      'invalid_request (a parameter missing, repeated or of the wrong type, or two client ' +
        'authentication methods) or unsupported_grant_type (anything but client_credentials)',
    ),
    '401': {
      ...oauthError('invalid_client: unknown client, wrong secret or no client authentication'),
      headers: {
        'WWW-Authenticate': { description: 'Basic, when the client used HTTP Basic', schema: z.string() },
      },
    },
    '413': oauthError('Request body larger than the configured limit'),
    '503': { shared: 'ServiceUnavailable' },
  },
});

/** The token endpoint's parameters, once checked. */
export type OAuthTokenParams = z.output<typeof OAuthTokenRequest>;
/** What the token endpoint answers. */
export type OAuthTokenJson = z.input<typeof OAuthTokenResponse>;
export type OAuthErrorJson = z.input<typeof OAuthError>;

export const oauthEndpoints = [issueOAuthToken] as const;
