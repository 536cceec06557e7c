import { z } from 'zod';
import { plainText } from '../openapi/schemas/text';
import { accountToken, er, hexIdParameter, sem, unavailable, withBody } from './common';
import { defineEndpoint, type EndpointResponse } from './define';
import { fromStringSchema } from './schemas';
import { NewVerificationRequest, VerificationMetadata } from './verification-requests';
import { VerificationDetails, VerificationHistory, VerificationResponse } from './verification-responses';

/**
 * The verification flow of REST v2 (the spec's "Verification flow" table and the token endpoints known by
 * name), described once: start, read, expire, and with an account token the history, details, metadata and
 * webhooks of a verification. The steps are in endpoints/verification-steps.ts, the marketplace start in
 * endpoints/marketplace.ts. The routes (routes/verification*.ts) register them by these paths.
 */

export const tags = ['verification'] as const;
/** No token: the unguessable verificationId is the capability. */
export const noToken = [] as const;

export const verificationId = hexIdParameter('The verification');
export const programId = hexIdParameter('The program');
const trackingId = fromStringSchema(plainText(256, 1)).meta({
  description:
    'The tracking id the verification was started with (1 to 256 characters, no control characters; ' +
    'any other value names no verification: 404).',
});

export const vr = (description: string): EndpointResponse => ({ description, body: VerificationResponse });
export const noVerification = er(
  'No such verification (errorIds [noVerification]); also for a malformed verificationId',
);
const noVerificationForAccount = er(
  'No such verification for this caller (errorIds [noVerification]); a verification of another account is ' +
    'answered the same way',
);
export const limitReached = er(
  'The person limit of the program or the document review limit was reached (errorIds ' +
    '[verificationLimitExceeded] or [docReviewLimitExceeded])',
);
const account = { '401': { shared: 'Unauthorized' }, ...unavailable } satisfies Record<
  string,
  EndpointResponse
>;

/**
 * The creation paths (POST /verification, the program path shape, POST /verification/marketplace): no token
 * needed (the empty requirement), unless the program requires its account's (requireAccountTokenToCreate).
 */
export const creationSecurity = [{}, ...accountToken] as const;
export const creationNote =
  'A program may require a token of its account to create verifications (requireAccountTokenToCreate): ' +
  'its token then goes in the Authorization header; otherwise no token is needed, and one that is not ' +
  'valid is ignored.';
/** What the creation paths answer besides the flow's own: the caller refused, the program not open. */
export const creationRefused = {
  '401': sem(
    'The program requires a token of its account (requireAccountTokenToCreate), and none was sent, it is ' +
      'not a valid account token, or it is of another account (`WWW-Authenticate: Bearer`)',
  ),
  '403': er('The program has not started or has ended (errorIds [inactiveProgram] or [expiredProgram])'),
  '404': { shared: 'ProgramNotFound' },
  '409': er('A live reward-pool program has no codes left (errorIds [noRemainingRewardCodes])'),
} satisfies Record<string, EndpointResponse>;

export const startVerification = defineEndpoint({
  method: 'post',
  path: '/verification',
  operationId: 'startVerification',
  summary: "Starts a verification: its answer is the first step of the program's segment",
  description:
    `${creationNote} The optional metadata is stored as the ` +
    'verification’s (as PUT /verification/{verificationId}/metadata would), the optional locale becomes ' +
    'the locale of its responses.',
  tags,
  security: creationSecurity,
  body: NewVerificationRequest,
  responses: {
    '200': vr('The first step (e.g. collectStudentPersonalInfo) with its submissionUrl'),
    ...withBody,
    '400': er(
      'The body is invalid (errorIds [invalidRequest], e.g. a locale that is no BCP 47 tag or a reserved ' +
        'metadata key), or its metadata has too many or too long values (errorIds ' +
        '[maxMetadataValuesExceeded] or [maxMetadataLengthExceeded])',
    ),
    ...creationRefused,
    ...unavailable,
  },
});

export const getVerification = defineEndpoint({
  method: 'get',
  path: '/verification/{verificationId}',
  operationId: 'getVerification',
  summary: 'The response of the current state (also resumes a halted flow)',
  tags,
  security: noToken,
  params: z.object({ verificationId }),
  responses: {
    '200': vr('The current state; a verification whose time is up is answered expired'),
    '404': noVerification,
    '429': limitReached,
    ...unavailable,
  },
});

export const getVerificationByTrackingId = defineEndpoint({
  method: 'get',
  path: '/verification/program/{programId}/trackingId/{trackingId}',
  operationId: 'getVerificationByTrackingId',
  summary: 'The most recent verification of the program with this tracking id',
  tags,
  security: noToken,
  params: z.object({ programId, trackingId }),
  responses: {
    '200': vr('Its current state'),
    '404': er(
      'No such program (errorIds [noProgram]) or no verification with this tracking id ' +
        '(errorIds [noVerification])',
    ),
    '429': limitReached,
    ...unavailable,
  },
});

export const listVerificationHistory = defineEndpoint({
  method: 'get',
  path: '/verification/program/{programId}/trackingId/{trackingId}/history',
  operationId: 'listVerificationHistory',
  summary: 'The 10 most recent verifications of the tracking id, newest first',
  tags,
  security: accountToken,
  params: z.object({ programId, trackingId }),
  responses: {
    '200': { description: 'The verifications', body: VerificationHistory },
    '404': er(
      'No such program for this caller (errorIds [noProgram]), or no verification with this tracking ' +
        'id (errorIds [noVerification])',
    ),
    ...account,
  },
});

const ofAccount = { tags, security: accountToken, params: z.object({ verificationId }) } as const;

export const getVerificationDetails = defineEndpoint({
  method: 'get',
  path: '/verification/{verificationId}/details',
  operationId: 'getVerificationDetails',
  summary: 'Everything about a verification, person info included (what a webhook receiver reads)',
  ...ofAccount,
  responses: {
    '200': { description: 'The details', body: VerificationDetails },
    '404': noVerificationForAccount,
    ...account,
  },
});

export const getVerificationMetadata = defineEndpoint({
  method: 'get',
  path: '/verification/{verificationId}/metadata',
  operationId: 'getVerificationMetadata',
  summary: 'The metadata of a verification',
  ...ofAccount,
  responses: {
    '200': { description: 'The metadata (empty object when none)', body: VerificationMetadata },
    '404': noVerificationForAccount,
    ...account,
  },
});

export const putVerificationMetadata = defineEndpoint({
  method: 'put',
  path: '/verification/{verificationId}/metadata',
  operationId: 'putVerificationMetadata',
  summary: 'Replaces the metadata of an ongoing verification',
  description: 'The body is at most 64 KiB.',
  ...ofAccount,
  body: VerificationMetadata,
  responses: {
    '200': { description: 'The metadata as stored', body: VerificationMetadata },
    ...withBody,
    '400': er(
      'The body is not a flat map of strings, or has an empty or reserved (__proto__) key or a control ' +
        'character (errorIds [invalidRequest]), or it has too many or too long values (errorIds ' +
        '[maxMetadataValuesExceeded] or [maxMetadataLengthExceeded])',
    ),
    '404': noVerificationForAccount,
    ...account,
  },
});

export const refireWebhooks = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/refireWebhooks',
  operationId: 'refireWebhooks',
  summary: 'Sends the most recent webhook notifications of the verification again',
  ...ofAccount,
  responses: {
    '204': { description: 'The notifications will be sent again' },
    '404': noVerificationForAccount,
    ...account,
  },
});

export const expireVerification = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/expire',
  operationId: 'expireVerification',
  summary: 'Ends an ongoing verification (error expiredVerification)',
  tags,
  security: noToken,
  params: z.object({ verificationId }),
  responses: {
    '200': vr('The expired verification; consolationRewardCode when the program has one'),
    '400': vr('The verification had already ended: nothing changed'),
    '404': noVerification,
    ...unavailable,
  },
});

export const verificationFlowEndpoints = [
  startVerification,
  getVerification,
  getVerificationByTrackingId,
  listVerificationHistory,
  getVerificationDetails,
  getVerificationMetadata,
  putVerificationMetadata,
  refireWebhooks,
  expireVerification,
] as const;
