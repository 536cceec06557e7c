import { plainText } from './text';

/** The OAuth 2.0 client-credentials token endpoint (RFC 6749 section 4.4). */
export const oauthSchemas = {
  OAuthTokenRequest: {
    type: 'object',
    description:
      'Form parameters (application/x-www-form-urlencoded; JSON is accepted too). The client authenticates ' +
      'with HTTP Basic (client_id:client_secret) or with client_id and client_secret here, not both. ' +
      'Unrecognised parameters are ignored, as RFC 6749 section 3.1 requires; each parameter at most once.',
    required: ['grant_type'],
    properties: {
      grant_type: { type: 'string', const: 'client_credentials' },
      client_id: plainText(512),
      client_secret: plainText(512),
      scope: { ...plainText(512), description: 'Accepted and ignored: tokens carry no scopes.' },
    },
  },
  OAuthTokenResponse: {
    type: 'object',
    required: ['access_token', 'token_type', 'expires_in'],
    properties: {
      access_token: {
        type: 'string',
        description: 'Use as `Authorization: Bearer <access_token>` on the token endpoints.',
      },
      token_type: { type: 'string', const: 'Bearer' },
      expires_in: { type: 'integer', description: 'Lifetime in seconds.' },
    },
  },
  OAuthError: {
    type: 'object',
    description: 'RFC 6749 section 5.2 error body.',
    required: ['error'],
    properties: {
      error: { type: 'string', enum: ['invalid_request', 'invalid_client', 'unsupported_grant_type'] },
      error_description: { type: 'string' },
    },
  },
} as const;
