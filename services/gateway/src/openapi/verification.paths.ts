import { errorResponse, idParameter, jsonBody, jsonResponse, ref } from './refs';
import { plainText } from './schemas/text';

const tags = ['verification'];
const security = [{ bearerToken: [] }, { oauthClientCredentials: [] }];
export const verificationId = idParameter('verificationId', 'The verification');
export const programId = idParameter('programId', 'The program');
const trackingId = {
  name: 'trackingId',
  in: 'path',
  required: true,
  description:
    'The tracking id the verification was started with (1 to 256 characters, no control characters; ' +
    'any other value names no verification: 404).',
  schema: plainText(256, 1),
};

export const vr = (description: string) => jsonResponse(description, 'VerificationResponse');
export const unavailable = { '503': ref('responses', 'ServiceUnavailable') };
export const noVerification = errorResponse(
  'No such verification (errorIds [noVerification]); also for a malformed verificationId',
  'ErrorResponse',
);
const noVerificationForAccount = errorResponse(
  'No such verification for this caller (errorIds [noVerification]); a verification of another account is ' +
    'answered the same way',
  'ErrorResponse',
);
export const limitReached = errorResponse(
  'The person limit of the program or the document review limit was reached (errorIds ' +
    '[verificationLimitExceeded] or [docReviewLimitExceeded])',
  'ErrorResponse',
);
const withBody = { '400': ref('responses', 'InvalidRequest'), '413': ref('responses', 'PayloadTooLarge') };

/**
 * The creation paths (POST /verification, the program path shape, POST /verification/marketplace): no token
 * needed (the empty requirement), unless the program requires its account's (requireAccountTokenToCreate).
 */
export const creationSecurity = [{}, ...security];
export const creationRefused = {
  '401': errorResponse(
    'The program requires a token of its account (requireAccountTokenToCreate), and none was sent, it is ' +
      'not a valid account token, or it is of another account (`WWW-Authenticate: Bearer`)',
    'SystemErrorMessage',
  ),
};
export const creationNote =
  'A program may require a token of its account to create verifications (requireAccountTokenToCreate): ' +
  'its token then goes in the Authorization header; otherwise no token is needed, and one that is not ' +
  'valid is ignored.';
const account = { '401': ref('responses', 'Unauthorized'), ...unavailable };

/**
 * The verification flow (the spec's "Verification flow" table and the token endpoints known by name). The
 * steps are in verification-steps.paths.ts.
 */
export const verificationPaths = {
  '/verification': {
    post: {
      tags,
      operationId: 'startVerification',
      summary: "Starts a verification: its answer is the first step of the program's segment",
      description:
        `${creationNote} The optional metadata is stored as the ` +
        'verification’s (as PUT /verification/{verificationId}/metadata would), the optional locale becomes ' +
        'the locale of its responses.',
      security: creationSecurity,
      requestBody: jsonBody('NewVerificationRequest'),
      responses: {
        '200': vr('The first step (e.g. collectStudentPersonalInfo) with its submissionUrl'),
        ...withBody,
        '400': errorResponse(
          'The body is invalid (errorIds [invalidRequest], e.g. a locale that is no BCP 47 tag or a reserved ' +
            'metadata key), or its metadata has too many or too long values (errorIds ' +
            '[maxMetadataValuesExceeded] or [maxMetadataLengthExceeded])',
          'ErrorResponse',
        ),
        ...creationRefused,
        '403': errorResponse(
          'The program has not started or has ended (errorIds [inactiveProgram] or [expiredProgram])',
          'ErrorResponse',
        ),
        '404': ref('responses', 'ProgramNotFound'),
        '409': errorResponse(
          'A live reward-pool program has no codes left (errorIds [noRemainingRewardCodes])',
          'ErrorResponse',
        ),
        ...unavailable,
      },
    },
  },
  '/verification/{verificationId}': {
    parameters: [verificationId],
    get: {
      tags,
      operationId: 'getVerification',
      summary: 'The response of the current state (also resumes a halted flow)',
      responses: {
        '200': vr('The current state; a verification whose time is up is answered expired'),
        '404': noVerification,
        '429': limitReached,
        ...unavailable,
      },
    },
  },
  '/verification/program/{programId}/trackingId/{trackingId}': {
    parameters: [programId, trackingId],
    get: {
      tags,
      operationId: 'getVerificationByTrackingId',
      summary: 'The most recent verification of the program with this tracking id',
      responses: {
        '200': vr('Its current state'),
        '404': errorResponse(
          'No such program (errorIds [noProgram]) or no verification with this tracking id ' +
            '(errorIds [noVerification])',
          'ErrorResponse',
        ),
        '429': limitReached,
        ...unavailable,
      },
    },
  },
  '/verification/program/{programId}/trackingId/{trackingId}/history': {
    parameters: [programId, trackingId],
    get: {
      tags,
      operationId: 'listVerificationHistory',
      summary: 'The 10 most recent verifications of the tracking id, newest first',
      security,
      responses: {
        '200': jsonResponse('The verifications', 'VerificationHistory'),
        '404': errorResponse(
          'No such program for this caller (errorIds [noProgram]), or no verification with this tracking ' +
            'id (errorIds [noVerification])',
          'ErrorResponse',
        ),
        ...account,
      },
    },
  },
  '/verification/{verificationId}/details': {
    parameters: [verificationId],
    get: {
      tags,
      operationId: 'getVerificationDetails',
      summary: 'Everything about a verification, person info included (what a webhook receiver reads)',
      security,
      responses: {
        '200': jsonResponse('The details', 'VerificationDetails'),
        '404': noVerificationForAccount,
        ...account,
      },
    },
  },
  '/verification/{verificationId}/metadata': {
    parameters: [verificationId],
    get: {
      tags,
      operationId: 'getVerificationMetadata',
      summary: 'The metadata of a verification',
      security,
      responses: {
        '200': jsonResponse('The metadata (empty object when none)', 'VerificationMetadata'),
        '404': noVerificationForAccount,
        ...account,
      },
    },
    put: {
      tags,
      operationId: 'putVerificationMetadata',
      summary: 'Replaces the metadata of an ongoing verification',
      description: 'The body is at most 64 KiB.',
      security,
      requestBody: jsonBody('VerificationMetadata'),
      responses: {
        '200': jsonResponse('The metadata as stored', 'VerificationMetadata'),
        ...withBody,
        '400': errorResponse(
          'The body is not a flat map of strings, or has an empty or reserved (__proto__) key or a control ' +
            'character (errorIds [invalidRequest]), or it has too many or too long values (errorIds ' +
            '[maxMetadataValuesExceeded] or [maxMetadataLengthExceeded])',
          'ErrorResponse',
        ),
        '404': noVerificationForAccount,
        ...account,
      },
    },
  },
  '/verification/{verificationId}/refireWebhooks': {
    parameters: [verificationId],
    post: {
      tags,
      operationId: 'refireWebhooks',
      summary: 'Sends the most recent webhook notifications of the verification again',
      security,
      responses: {
        '204': { description: 'The notifications will be sent again' },
        '404': noVerificationForAccount,
        ...account,
      },
    },
  },
  '/verification/{verificationId}/expire': {
    parameters: [verificationId],
    post: {
      tags,
      operationId: 'expireVerification',
      summary: 'Ends an ongoing verification (error expiredVerification)',
      responses: {
        '200': vr('The expired verification; consolationRewardCode when the program has one'),
        '400': vr('The verification had already ended: nothing changed'),
        '404': noVerification,
        ...unavailable,
      },
    },
  },
} as const;
