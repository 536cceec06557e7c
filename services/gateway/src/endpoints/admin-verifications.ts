import { z } from 'zod';
import { TRIGGERS } from '@eligo/vocabulary';
import { adminOperation, unauthorized } from './admin-common';
import { adminVerificationSearchEndpoints } from './admin-verification-search';
import { er, hexIdParameter } from './common';
import { defineEndpoint } from './define';
import { epochMs } from './schemas-numbers';
import { VerificationDetails } from './verification-responses';

/**
 * The staff view of a verification under /rest/admin/v1 (operator token), described once; the route is
 * routes/admin/verifications.ts. The details are those the program account sees (VerificationDetails).
 */
export const StepRecord = z
  .object({
    step: z.string().meta({ description: 'The step after the change.' }),
    previousStep: z.string().nullable().meta({ description: 'null for the start.' }),
    // The verification service's own list: the schema cannot drift from the state machine.
    trigger: z.enum(['start', ...TRIGGERS]),
    errorIds: z.array(z.string()),
    occurred: epochMs('When the change committed.'),
  })
  .meta({ id: 'StepRecord' });

export const AdminVerification = z
  .object({
    verificationId: z.string(),
    accountId: z.string().meta({ description: 'The account of the program.' }),
    segment: z.string(),
    subSegment: z.string().nullable(),
    currentStep: z.string(),
    testMode: z.boolean(),
    expires: epochMs('When an unfinished verification expires.'),
    details: VerificationDetails,
    steps: z.array(StepRecord).meta({ description: 'Oldest first.' }),
  })
  .meta({ id: 'AdminVerification' });

export type StepRecordJson = z.input<typeof StepRecord>;
export type AdminVerificationJson = z.input<typeof AdminVerification>;

export const getAdminVerification = defineEndpoint({
  method: 'get',
  path: '/verifications/{verificationId}',
  operationId: 'adminGetVerification',
  summary: 'Any verification whole, with the history of its steps',
  description:
    'For staff: the state, the details as the program account sees them (person decrypted) and every ' +
    'step the verification took, oldest first, including each recoverable error on a step (a step ' +
    'equal to its previousStep, with errorIds). Reading it changes nothing: a verification past its ' +
    'time is shown as stored.',
  ...adminOperation,
  params: z.object({ verificationId: hexIdParameter('A verification') }),
  responses: {
    '200': { description: 'The verification', body: AdminVerification },
    ...unauthorized,
    '404': er('No such verification (errorIds [noVerification])'),
  },
});

export const expireAdminVerification = defineEndpoint({
  method: 'post',
  path: '/verifications/{verificationId}/expire',
  operationId: 'adminExpireVerification',
  summary: 'End an ongoing verification now, as its expiry would',
  description:
    'For support: the verification ends on the error step with errorIds [expiredVerification], exactly as ' +
    'when its time runs out: its history gains an expire step, the program gets its consolation code if it ' +
    'has one, and an opted-in EXPIRATION webhook is sent. A verification waiting for a document review ' +
    'expires too. Answers the verification whole, as GET does. One that has ended (success or error) is ' +
    'left as it is: 409.',
  ...adminOperation,
  params: z.object({ verificationId: hexIdParameter('A verification') }),
  responses: {
    '200': { description: 'The verification, expired', body: AdminVerification },
    ...unauthorized,
    '404': er('No such verification (errorIds [noVerification])'),
    '409': er(
      'The verification had already ended, on success or error: nothing changed (errorIds [invalidStep])',
    ),
  },
});

export const adminVerificationEndpoints = [
  ...adminVerificationSearchEndpoints,
  getAdminVerification,
  expireAdminVerification,
] as const;
