import { z } from 'zod';
import { adminOperation, unauthorized } from './admin-common';
import { ProgramCreateRequest } from './admin-programs-create';
import { ProgramPatchRequest, RewardCodesRequest } from './admin-programs-input';
import { er, hexIdParameter, sem, withBody } from './common';
import { defineEndpoint, type BodyOf, type EndpointResponse } from './define';
import { RewardCodesAdded } from './program-responses';

/**
 * The admin API's programs, of any account (operator token): create, read, change (JSON merge patch) and
 * add reward codes, described once. The routes (routes/admin/programs.ts) register them by these paths and
 * check bodies with these schemas (400 ER invalidRequest naming the field); the document states them from
 * here. The program configuration they answer is the shared response of REST v2's program endpoints.
 */

const params = z.object({ programId: hexIdParameter('A program of any account') });
const configuration = { shared: 'ProgramConfiguration' } satisfies EndpointResponse;
const programNotFound = { shared: 'ProgramNotFound' } satisfies EndpointResponse;

/** What the schema cannot say about program settings: each is 400 invalidRequest naming the field. */
const crossFieldRules =
  'endDate not after startDate, minAge above maxAge, an organization id both included and excluded, a ' +
  'country listed twice in two spellings (us and US), a theme over 256 KiB in all (UTF-8) or a customCss ' +
  'over 64 KiB, a subjectTokenKey that is not a usable public key, a webhook callbackUri whose host is a ' +
  'non-public IP address outside ELIGO_WEBHOOK_ALLOW_CIDRS, an embedOrigins entry listed twice in two spellings ' +
  '(https://Shop.example:443 and https://shop.example)';
const invalidProgram = (rules: string) =>
  er(
    'The body does not match its schema, or breaks a rule the schema cannot state (errorIds ' +
      `[invalidRequest]; systemErrorMessage names every field): ${rules}`,
  );

export const adminCreateProgram = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/programs',
  operationId: 'adminCreateProgram',
  summary: 'Creates a program of an account (in test mode unless mode says otherwise)',
  description: 'With a webhook, the reply carries webhook.signingSecret, only this once.',
  body: ProgramCreateRequest,
  responses: {
    '201': configuration,
    ...withBody,
    '400': invalidProgram(`${crossFieldRules}.`),
    ...unauthorized,
    '404': sem('No such account'),
  },
});

export const adminGetProgram = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/programs/{programId}',
  operationId: 'adminGetProgram',
  summary: 'The configuration of a program',
  params,
  responses: { '200': configuration, ...unauthorized, '404': programNotFound },
});

export const adminUpdateProgram = defineEndpoint({
  ...adminOperation,
  method: 'patch',
  path: '/programs/{programId}',
  operationId: 'adminUpdateProgram',
  summary: 'Changes a program (JSON merge patch)',
  params,
  body: ProgramPatchRequest,
  bodyContent: { 'application/merge-patch+json': ProgramPatchRequest },
  responses: {
    '200': configuration,
    ...withBody,
    '400': invalidProgram(
      `${crossFieldRules}; and, against the stored program (the merged result is checked as on ` +
        'create): a segment other than the stored one, subSegments not of its segment, minAge or maxAge ' +
        'on a program that is not an age or senior program, a rewardCode without a staticCode offer or a ' +
        'staticCode offer without one, dates or ages that do not fit the stored ones.',
    ),
    ...unauthorized,
    '404': programNotFound,
    '409': er(
      'webhook set while the program has one (errorIds [webhookAlreadyExists]), or verificationLimit ' +
        'set while it has one (errorIds [verificationLimitAlreadyExists]): clear it first (null)',
    ),
  },
});

export const adminAddRewardCodes = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/programs/{programId}/rewardCodes',
  operationId: 'adminAddRewardCodes',
  summary: 'Adds single-use codes to the pool of a rewardPool program (at most 10000 per call)',
  params,
  body: RewardCodesRequest,
  responses: {
    '200': { description: 'Codes added', body: RewardCodesAdded },
    ...withBody,
    ...unauthorized,
    '404': programNotFound,
  },
});

export type ProgramCreateBody = BodyOf<typeof adminCreateProgram>;
export type ProgramPatchBody = BodyOf<typeof adminUpdateProgram>;
export type RewardCodesBody = BodyOf<typeof adminAddRewardCodes>;

export const adminProgramEndpoints = [
  adminCreateProgram,
  adminGetProgram,
  adminUpdateProgram,
  adminAddRewardCodes,
] as const;
