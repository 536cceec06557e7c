import { endpointSchemas } from '../endpoints';

/** Every schema the document publishes: those the endpoint definitions name (endpoints/), from their zod schemas. */
export const schemas = endpointSchemas;

const json = (schema: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
});

/** Shared responses: one description per condition, so every path states it the same way. */
const responses = {
  Unauthorized: {
    description: 'Missing or invalid bearer token (`WWW-Authenticate: Bearer`)',
    content: json('SystemErrorMessage'),
  },
  InvalidRequest: {
    description:
      'The body does not match its schema (errorIds [invalidRequest]; systemErrorMessage names the field), ' +
      'or the programs service refused a value (e.g. an unknown segment or country)',
    content: json('ErrorResponse'),
  },
  ProgramNotFound: {
    description:
      'No such program for this caller (errorIds [noProgram]); a program of another account is answered ' +
      'the same way',
    content: json('ErrorResponse'),
  },
  PayloadTooLarge: {
    description: 'Request body larger than the configured limit (ELIGO_HTTP_BODY_LIMIT)',
    content: json('ErrorResponse'),
  },
  RequestHeadTooLarge: {
    description:
      'The request line and headers together are larger than 16 KiB (16384 bytes), e.g. a query naming ' +
      'hundreds of ids: refused before any route reads it',
    content: json('SystemErrorMessage'),
  },
  ServiceUnavailable: {
    description: 'A service the request needs did not answer (also when the token could not be checked)',
    content: json('SystemErrorMessage'),
  },
  InternalServerError: {
    description:
      'A fault of ours, not of the request (errorIds [internalServerError], a generic message): a service ' +
      'failed, or answered a value the gateway cannot read (e.g. an unspecified status)',
    content: json('InternalServerError'),
  },
  ProgramConfiguration: {
    description: 'The program configuration',
    content: json('ProgramConfiguration'),
  },
} as const;

/** Shared schemas, responses and security schemes of the OpenAPI document. */
export function components(publicBaseUrl: string) {
  return {
    securitySchemes: {
      bearerToken: {
        type: 'http',
        scheme: 'bearer',
        description:
          "An access token of the account: a static token (shown once at creation) or an OAuth 2.0 access token. The operator token is not accepted on the account's endpoints.",
      },
      oauthClientCredentials: {
        type: 'oauth2',
        description: 'Access tokens from the client-credentials grant, used as bearer tokens.',
        flows: { clientCredentials: { tokenUrl: `${publicBaseUrl}/rest/oauth/token`, scopes: {} } },
      },
      operatorToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'The operator token from the configuration (ELIGO_ADMIN_TOKEN); admin API only.',
      },
      staffSession: {
        type: 'apiKey',
        in: 'cookie',
        name: 'eligo_staff',
        description:
          'A staff member’s session: the HttpOnly cookie that POST /console/session sets at sign-in. An ' +
          'unsafe method (POST, PUT, PATCH, DELETE) also needs the X-CSRF-Token header, the csrfToken of the ' +
          'sign-in. Admin API only, for the operations the member’s role may call (x-staff-roles).',
      },
      clientBasic: {
        type: 'http',
        scheme: 'basic',
        description: 'OAuth client authentication: client_id and client_secret as user name and password.',
      },
    },
    schemas,
    responses,
  };
}
