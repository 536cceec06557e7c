import { errorResponse, idParameter, jsonBody, jsonResponse, ref } from './refs';

const security = [{ bearerToken: [] }, { oauthClientCredentials: [] }];
const programId = idParameter('programId', 'A program of the calling account');
const common = {
  '401': ref('responses', 'Unauthorized'),
  '404': ref('responses', 'ProgramNotFound'),
  '503': ref('responses', 'ServiceUnavailable'),
};
const withBody = { '400': ref('responses', 'InvalidRequest'), '413': ref('responses', 'PayloadTooLarge') };

/** REST v2 program administration (the spec's table of that name): an account token on its own programs. */
export const programPaths = {
  '/program/{programId}/theme': {
    parameters: [programId],
    get: {
      tags: ['program'],
      operationId: 'getProgramTheme',
      summary: "The program's theme: its messages over the default ones, and its CSS",
      security,
      responses: { '200': jsonResponse('The theme', 'Theme'), ...common },
    },
  },
  '/program/{programId}/verificationLimit': {
    parameters: [programId],
    post: {
      tags: ['program'],
      operationId: 'createVerificationLimit',
      summary: 'Limits how many verifications a person may complete within a number of days',
      security,
      requestBody: jsonBody('VerificationLimitRequest'),
      responses: {
        '200': ref('responses', 'ProgramConfiguration'),
        ...withBody,
        ...common,
        '409': errorResponse(
          'The program already has a limit (errorIds [verificationLimitAlreadyExists]); delete it first',
          'ErrorResponse',
        ),
      },
    },
    delete: {
      tags: ['program'],
      operationId: 'deleteVerificationLimit',
      summary: "Removes the program's verification limit",
      security,
      responses: { '200': ref('responses', 'ProgramConfiguration'), ...common },
    },
  },
  '/program/{programId}/webhook': {
    parameters: [programId],
    post: {
      tags: ['program'],
      operationId: 'createWebhook',
      summary: 'Sets the webhook called when a verification of the program succeeds',
      description:
        'notifierEventTypes opts in to further notifications (DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, ' +
        'EXPIRATION); an unknown one is refused with 400. The reply carries webhook.signingSecret, the ' +
        'HMAC-SHA256 key of the signature, only this once. A webhook cannot be changed while one exists: ' +
        'delete it, then create the new one.',
      security,
      requestBody: jsonBody('WebhookRequest'),
      responses: {
        '200': ref('responses', 'ProgramConfiguration'),
        ...withBody,
        ...common,
        '409': errorResponse(
          'The program already has a webhook (errorIds [webhookAlreadyExists]); delete it first',
          'ErrorResponse',
        ),
      },
    },
    delete: {
      tags: ['program'],
      operationId: 'deleteWebhook',
      summary: "Removes the program's webhook",
      security,
      requestBody: jsonBody('WebhookDeleteRequest', false),
      responses: { '200': ref('responses', 'ProgramConfiguration'), ...withBody, ...common },
    },
  },
  '/program/{programId}/sendLink': {
    parameters: [programId],
    post: {
      tags: ['program'],
      operationId: 'sendLink',
      summary: 'Sends the verification link of the program to an email address or a phone number',
      security,
      requestBody: jsonBody('SendLinkRequest'),
      responses: { '204': { description: 'The link will be sent' }, ...withBody, ...common },
    },
  },
} as const;
