import { jsonResponse, ref } from './refs';

const oauthError = (description: string) => jsonResponse(description, 'OAuthError');
const noStore = {
  'Cache-Control': { description: 'no-store', schema: { type: 'string', const: 'no-store' } },
};

/** The OAuth 2.0 token endpoint at /rest/oauth/token (its own server, outside /rest/v2). */
export function oauthPaths(publicBaseUrl: string) {
  return {
    '/token': {
      servers: [{ url: `${publicBaseUrl}/rest/oauth`, description: 'OAuth 2.0 authorization server' }],
      post: {
        tags: ['oauth'],
        operationId: 'issueOAuthToken',
        summary: 'Client-credentials grant (RFC 6749 section 4.4): a short-lived access token',
        description:
          'The access token is used like a static token (`Authorization: Bearer <access_token>`) until it ' +
          'expires or its static token is revoked.',
        security: [{ clientBasic: [] }, {}],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: ref('schemas', 'OAuthTokenRequest') },
            'application/json': { schema: ref('schemas', 'OAuthTokenRequest') },
          },
        },
        responses: {
          '200': { ...jsonResponse('An access token', 'OAuthTokenResponse'), headers: noStore },
          '400': oauthError(
            'invalid_request (a parameter missing, repeated or of the wrong type, or two client ' +
              'authentication methods) or unsupported_grant_type (anything but client_credentials)',
          ),
          '401': {
            ...oauthError('invalid_client: unknown client, wrong secret or no client authentication'),
            headers: {
              'WWW-Authenticate': {
                description: 'Basic, when the client used HTTP Basic',
                schema: { type: 'string' },
              },
            },
          },
          '413': oauthError('Request body larger than the configured limit'),
          '503': ref('responses', 'ServiceUnavailable'),
        },
      },
    },
  };
}
