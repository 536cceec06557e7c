import { z } from 'zod';
import { ID_PATTERN, segmentNames } from '@eligo/vocabulary';
import { badListQuery, listPaging, nameFilter, nextCursor } from './admin-account-lists';
import { adminOperation, unauthorized } from './admin-common';
import { er, hexIdParameter, sem } from './common';
import { defineEndpoint, type EndpointResponse, type QueryOf } from './define';
import { hexId, oneOf } from './query';
import { epochMs, integerValue } from './schemas-numbers';

/**
 * What the staff console lists and reads of programs under /rest/admin/v1 besides their configuration
 * (endpoints/admin-programs.ts): the program list, the level of a reward-code pool, and the rotation of a
 * webhook's signing secret, described once (docs/operations.md, "Accounts, access tokens and programs"). The
 * routes are routes/admin/program-lists.ts, the mapping mapping/admin-lists.ts.
 */

export const ProgramSummary = z
  .object({
    programId: z.string().regex(new RegExp(ID_PATTERN)),
    accountId: z.string().regex(new RegExp(ID_PATTERN)),
    name: z.string(),
    segment: z.string(),
    mode: z.enum(['test', 'live']),
    offerType: z.enum(['staticCode', 'rewardPool', 'noCode']),
    created: epochMs(),
    updated: epochMs(),
  })
  .meta({
    id: 'ProgramSummary',
    description: 'What a list shows of a program; GET /programs/{programId} answers its whole configuration.',
  });

export const ProgramSummaryPage = z
  .object({ programs: z.array(ProgramSummary).meta({ description: 'Newest first.' }), nextCursor })
  .meta({ id: 'ProgramSummaryPage' });

const count = (description: string) => integerValue().min(0).meta({ description });

export const RewardCodePoolLevel = z
  .object({
    pooled: z.boolean().meta({
      description: 'The program hands out pool codes (offerType rewardPool); false: every number is 0.',
    }),
    total: count('Codes in the pool: unused and claimed.'),
    unused: count('Codes not handed out yet (rewardCodesRemaining).'),
    claimed: count('Codes handed out to verifications.'),
    low: z.boolean().meta({
      description: 'unused is below lowThreshold: time to add codes. Always true for an empty pool.',
    }),
    lowThreshold: count(
      'The level under which the pool is low: 10% of total rounded up, at least 1 and at most 50; 0 when not pooled.',
    ),
  })
  .meta({ id: 'RewardCodePoolLevel', description: "How full a program's reward-code pool is." });

export const WebhookSecretRotated = z
  .object({
    programId: z.string().regex(new RegExp(ID_PATTERN)),
    webhookSecret: z.string().meta({
      description:
        'The new HMAC-SHA256 signing key of the webhook (whsec_...), shown only in this reply. The old one ' +
        'stops at once: the next deliveries are signed with this one.',
    }),
  })
  .meta({ id: 'WebhookSecretRotated' });

const programParams = z.object({ programId: hexIdParameter('A program of any account') });
const programNotFound = { shared: 'ProgramNotFound' } satisfies EndpointResponse;
const noStore = { 'Cache-Control': { schema: z.literal('no-store') } };

export const adminListPrograms = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/programs',
  operationId: 'adminListPrograms',
  summary: 'Programs of every account (or of one), newest first, one page at a time',
  description: 'Each filter narrows the list; send the same filters with every page of one listing.',
  strictQuery: true,
  query: z.object({
    accountId: hexId({ description: "Only this account's programs" }).optional(),
    segment: oneOf(segmentNames as [string, ...string[]], {
      description: 'Only programs of this segment',
    }).optional(),
    mode: oneOf(['test', 'live'], { description: 'Only programs in this mode' }).optional(),
    name: nameFilter('Only programs whose name contains this').optional(),
    ...listPaging,
  }),
  responses: {
    '200': { description: 'One page of programs', body: ProgramSummaryPage },
    '400': badListQuery,
    ...unauthorized,
    '404': sem('No such account (accountId)'),
  },
});

export const adminGetRewardCodePoolLevel = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/programs/{programId}/rewardCodes/level',
  operationId: 'adminGetRewardCodePoolLevel',
  summary: "How full the program's reward-code pool is, and whether it runs low",
  params: programParams,
  responses: {
    '200': { description: 'The level of the pool', body: RewardCodePoolLevel },
    ...unauthorized,
    '404': programNotFound,
  },
});

export const adminRotateWebhookSecret = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/programs/{programId}/webhook/secret',
  operationId: 'adminRotateWebhookSecret',
  summary: "Replaces the signing secret of the program's webhook with a new one, shown once",
  description:
    'The old secret stops at once, with no grace period: the receiver must switch to the new one now ' +
    '(deliveries still waiting for an attempt are signed with it). The webhook keeps its callbackUri and ' +
    'notifications, and a disabled endpoint is enabled again. `Cache-Control: no-store`.',
  params: programParams,
  responses: {
    '200': { description: 'The new secret', body: WebhookSecretRotated, headers: noStore },
    ...unauthorized,
    '404': programNotFound,
    '409': er('The program has no webhook (errorIds [noWebhook]): create one first'),
  },
});

export type ProgramListQuery = QueryOf<typeof adminListPrograms>;
/** The JSON the mapping writes (mapping/admin-lists.ts). */
export type ProgramSummaryJson = z.input<typeof ProgramSummary>;
export type ProgramSummaryPageJson = z.input<typeof ProgramSummaryPage>;
export type RewardCodePoolLevelJson = z.input<typeof RewardCodePoolLevel>;
export type WebhookSecretRotatedJson = z.input<typeof WebhookSecretRotated>;

export const adminProgramListEndpoints = [
  adminListPrograms,
  adminGetRewardCodePoolLevel,
  adminRotateWebhookSecret,
] as const;
