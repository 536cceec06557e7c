import { errorResponse, idParameter, jsonBody, jsonResponse, ref } from './refs';

export const security = [{ operatorToken: [] }];
const accountId = idParameter('accountId', 'An account');
const programId = idParameter('programId', 'A program of any account');
export const unauthorized = {
  '401': {
    description: 'Missing or invalid operator token (account tokens are not accepted here)',
    content: { 'application/json': { schema: ref('schemas', 'SystemErrorMessage') } },
  },
  '503': ref('responses', 'ServiceUnavailable'),
};
export const withBody = {
  '400': ref('responses', 'InvalidRequest'),
  '413': ref('responses', 'PayloadTooLarge'),
};
const noAccount = errorResponse('No such account', 'SystemErrorMessage');
const programConfiguration = ref('responses', 'ProgramConfiguration');

/** What the schema cannot say about program settings: each is 400 invalidRequest naming the field. */
const crossFieldRules =
  'endDate not after startDate, minAge above maxAge, an organization id both included and excluded, a ' +
  'country listed twice in two spellings (us and US), a theme over 256 KiB in all (UTF-8) or a customCss ' +
  'over 64 KiB, a subjectTokenKey that is not a usable public key, a webhook callbackUri whose host is a ' +
  'non-public IP address outside ELIGO_WEBHOOK_ALLOW_CIDRS';
const invalidProgram = (rules: string) =>
  errorResponse(
    'The body does not match its schema, or breaks a rule the schema cannot state (errorIds ' +
      `[invalidRequest]; systemErrorMessage names every field): ${rules}`,
    'ErrorResponse',
  );

/**
 * The operator API under /rest/admin/v1 (not part of REST v2). Each path item names its own server, so
 * that the full paths come out right under a document whose default server is /rest/v2.
 */
export function adminPaths(publicBaseUrl: string) {
  const servers = [{ url: `${publicBaseUrl}/rest/admin/v1`, description: 'Admin API (operator token)' }];
  return {
    '/accounts': {
      servers,
      post: {
        tags: ['admin'],
        operationId: 'adminCreateAccount',
        summary: 'Creates an account',
        security,
        requestBody: jsonBody('AccountCreateRequest'),
        responses: { '201': jsonResponse('The account', 'Account'), ...withBody, ...unauthorized },
      },
    },
    '/accounts/{accountId}/tokens': {
      servers,
      parameters: [accountId],
      post: {
        tags: ['admin'],
        operationId: 'adminCreateAccessToken',
        summary: 'Issues a static access token and OAuth client credentials for the account',
        description: 'The token and the client secret are in this reply only (`Cache-Control: no-store`).',
        security,
        requestBody: jsonBody('AccessTokenCreateRequest'),
        responses: {
          '201': jsonResponse('The token and credentials', 'AccessTokenCreated'),
          ...withBody,
          ...unauthorized,
          '404': noAccount,
        },
      },
    },
    '/accounts/{accountId}/tokens/{tokenId}': {
      servers,
      parameters: [accountId, idParameter('tokenId', 'A token of the account (tokenId from its creation)')],
      delete: {
        tags: ['admin'],
        operationId: 'adminRevokeAccessToken',
        summary: 'Revokes a token, its client credentials and the OAuth access tokens issued with them',
        description: 'Every gateway refuses the token within a second.',
        security,
        responses: {
          '204': { description: 'Revoked' },
          ...unauthorized,
          '404': errorResponse('No such account, or no such token of the account', 'SystemErrorMessage'),
        },
      },
    },
    '/programs': {
      servers,
      post: {
        tags: ['admin'],
        operationId: 'adminCreateProgram',
        summary: 'Creates a program of an account (in test mode unless mode says otherwise)',
        description: 'With a webhook, the reply carries webhook.signingSecret, only this once.',
        security,
        requestBody: jsonBody('ProgramCreateRequest'),
        responses: {
          '201': programConfiguration,
          ...withBody,
          '400': invalidProgram(`${crossFieldRules}.`),
          ...unauthorized,
          '404': noAccount,
        },
      },
    },
    '/programs/{programId}': {
      servers,
      parameters: [programId],
      get: {
        tags: ['admin'],
        operationId: 'adminGetProgram',
        summary: 'The configuration of a program',
        security,
        responses: {
          '200': programConfiguration,
          ...unauthorized,
          '404': ref('responses', 'ProgramNotFound'),
        },
      },
      patch: {
        tags: ['admin'],
        operationId: 'adminUpdateProgram',
        summary: 'Changes a program (JSON merge patch)',
        security,
        requestBody: {
          required: true,
          content: {
            'application/merge-patch+json': { schema: ref('schemas', 'ProgramPatchRequest') },
            'application/json': { schema: ref('schemas', 'ProgramPatchRequest') },
          },
        },
        responses: {
          '200': programConfiguration,
          ...withBody,
          '400': invalidProgram(
            `${crossFieldRules}; and, against the stored program (the merged result is checked as on ` +
              'create): a segment other than the stored one, subSegments not of its segment, minAge or maxAge ' +
              'on a program that is not an age or senior program, a rewardCode without a staticCode offer or a ' +
              'staticCode offer without one, dates or ages that do not fit the stored ones.',
          ),
          ...unauthorized,
          '404': ref('responses', 'ProgramNotFound'),
          '409': errorResponse(
            'webhook set while the program has one (errorIds [webhookAlreadyExists]), or verificationLimit ' +
              'set while it has one (errorIds [verificationLimitAlreadyExists]): clear it first (null)',
            'ErrorResponse',
          ),
        },
      },
    },
    '/programs/{programId}/rewardCodes': {
      servers,
      parameters: [programId],
      post: {
        tags: ['admin'],
        operationId: 'adminAddRewardCodes',
        summary: 'Adds single-use codes to the pool of a rewardPool program (at most 10000 per call)',
        security,
        requestBody: jsonBody('RewardCodesRequest'),
        responses: {
          '200': jsonResponse('Codes added', 'RewardCodesAdded'),
          ...withBody,
          ...unauthorized,
          '404': ref('responses', 'ProgramNotFound'),
        },
      },
    },
  };
}
