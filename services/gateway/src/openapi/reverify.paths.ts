import { errorResponse, idParameter, jsonBody, jsonResponse, ref } from './refs';
import { missingRole } from './report.paths';

const tags = ['reverification'];
const security = [{ bearerToken: [] }, { oauthClientCredentials: [] }];
const bulkVerifier = {
  '401': ref('responses', 'Unauthorized'),
  ...missingRole('BULK_VERIFIER'),
  '503': ref('responses', 'ServiceUnavailable'),
};

/** Bulk re-verification (the spec's endpoints known by name only): a token with the BULK_VERIFIER role. */
export const reverifyPaths = {
  '/verification/reverify': {
    post: {
      tags,
      operationId: 'startReverification',
      summary: 'Re-verifies a set of verifications of one program as a bulk job',
      description:
        'Up to 10,000 verification ids; the body may be up to 1 MiB whatever the general body limit. Follow ' +
        'the batch at statusUrl; POST reportUrl for its report.',
      security,
      requestBody: jsonBody('ReverifyRequest'),
      responses: {
        '202': jsonResponse('The batch was queued', 'ReverifyStarted'),
        '400': errorResponse(
          'The body does not match ReverifyRequest, or the service refused the list (errorIds [invalidRequest])',
          'ErrorResponse',
        ),
        '404': ref('responses', 'ProgramNotFound'),
        '413': ref('responses', 'PayloadTooLarge'),
        ...bulkVerifier,
      },
    },
  },
  '/verification/reverify/{batchId}': {
    parameters: [idParameter('batchId', 'A re-verification batch of the calling account')],
    get: {
      tags,
      operationId: 'getReverification',
      summary: 'The progress of a bulk re-verification',
      security,
      responses: {
        '200': jsonResponse('The batch', 'ReverifyStatus'),
        ...bulkVerifier,
        '404': errorResponse(
          'No such batch for this caller (also for a malformed batchId)',
          'SystemErrorMessage',
        ),
      },
    },
  },
} as const;
