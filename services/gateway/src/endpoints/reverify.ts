import { z } from 'zod';
import { ID_HEX, ID_PATTERN } from '@eligo/vocabulary';
import { trimmedPattern } from '../openapi/schemas/text';
import { accountToken, er, hexIdParameter, sem } from './common';
import { defineEndpoint, type BodyOf, type EndpointResponse } from './define';
import { missingRole } from './report';
import { timestamp } from './report-schemas';
import { patterned } from './schemas';
import { integerValue } from './schemas-numbers';

/**
 * Bulk re-verification (the spec's endpoints known by name only), described once: a token with the
 * BULK_VERIFIER role starts a batch over verifications of one of its programs and follows it; its report is
 * POST /report/reverify/{batchId} (endpoints/report.ts). The routes are routes/reverify.ts.
 */

const id24 = () => patterned(ID_PATTERN);
const count = () => integerValue().min(0);
const uri = (description: string) => z.string().meta({ format: 'uri', description });

export const MAX_REVERIFY_IDS = 10000;

export const ReverifyRequest = z
  .strictObject({
    programId: id24().meta({
      description: 'A program of the account; every verification must belong to it.',
    }),
    verificationIds: z
      .array(patterned(trimmedPattern(ID_HEX, 'must be a verification id (24 lowercase hex characters)')))
      .min(1)
      .max(MAX_REVERIFY_IDS)
      .meta({
        description:
          'Verifications of the program (24 lowercase hex characters each; repeated ones count once). At most ' +
          `ELIGO_REPORTS_REVERIFY_MAX_IDS (${MAX_REVERIFY_IDS} by default).`,
      }),
  })
  .meta({ id: 'ReverifyRequest' });

export const ReverifyStarted = z
  .object({
    batchId: id24(),
    statusUrl: uri('GET it to follow the batch.'),
    reportUrl: uri("POST to it to request the batch's report (a report status response)."),
  })
  .meta({ id: 'ReverifyStarted' });

export const ReverifyStatus = z
  .object({
    batchId: id24(),
    created: timestamp('When the batch was started.'),
    status: z.enum(['PENDING', 'IN_PROGRESS', 'COMPLETE']),
    totalRecords: count(),
    recordsProcessed: count(),
  })
  .meta({ id: 'ReverifyStatus' });

const tags = ['reverification'] as const;
const bulkVerifier = {
  '401': { shared: 'Unauthorized' },
  ...missingRole('BULK_VERIFIER'),
  '503': { shared: 'ServiceUnavailable' },
} satisfies Record<string, EndpointResponse>;

export const startReverification = defineEndpoint({
  method: 'post',
  path: '/verification/reverify',
  operationId: 'startReverification',
  summary: 'Re-verifies a set of verifications of one program as a bulk job',
  description:
    'Up to 10,000 verification ids; the body may be up to 1 MiB whatever the general body limit. Follow ' +
    'the batch at statusUrl; POST reportUrl for its report.',
  tags,
  security: accountToken,
  body: ReverifyRequest,
  responses: {
    '202': { description: 'The batch was queued', body: ReverifyStarted },
    '400': er(
      'The body does not match ReverifyRequest, or the service refused the list (errorIds [invalidRequest])',
    ),
    '404': { shared: 'ProgramNotFound' },
    '413': { shared: 'PayloadTooLarge' },
    ...bulkVerifier,
  },
});

export const getReverification = defineEndpoint({
  method: 'get',
  path: '/verification/reverify/{batchId}',
  operationId: 'getReverification',
  summary: 'The progress of a bulk re-verification',
  tags,
  security: accountToken,
  params: z.object({ batchId: hexIdParameter('A re-verification batch of the calling account') }),
  responses: {
    '200': { description: 'The batch', body: ReverifyStatus },
    ...bulkVerifier,
    '404': sem('No such batch for this caller (also for a malformed batchId)'),
  },
});

export type ReverifyBody = BodyOf<typeof startReverification>;

export const reverifyEndpoints = [startReverification, getReverification] as const;
