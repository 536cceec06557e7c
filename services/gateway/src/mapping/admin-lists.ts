import { programsProgramV1, type programsV1 } from '@eligo/proto';
import type {
  AccessTokenJson,
  AccessTokenPageJson,
  AccountOverviewJson,
  AccountPageJson,
} from '../endpoints/admin-account-lists';
import type {
  ProgramSummaryJson,
  ProgramSummaryPageJson,
  RewardCodePoolLevelJson,
  WebhookSecretRotatedJson,
} from '../endpoints/admin-program-lists';
import { epochMs, present } from './program';
import { tokenRolesFromProto } from './token-role';

/**
 * The staff console's lists and reads of the programs service as the admin API answers them
 * (endpoints/admin-account-lists.ts, admin-program-lists.ts), and the REST list parameters as its requests.
 * A page token is passed on as it came: it is the service's, opaque to the gateway too.
 */

const { ProgramMode, OfferType } = programsProgramV1;

// As the program configuration states them (mapping/program.ts); unspecified is what the service defaults to.
const modeNames: Partial<Record<programsProgramV1.ProgramMode, ProgramSummaryJson['mode']>> = {
  [ProgramMode.PROGRAM_MODE_TEST]: 'test',
  [ProgramMode.PROGRAM_MODE_LIVE]: 'live',
};
const offerNames: Partial<Record<programsProgramV1.OfferType, ProgramSummaryJson['offerType']>> = {
  [OfferType.OFFER_TYPE_STATIC_CODE]: 'staticCode',
  [OfferType.OFFER_TYPE_REWARD_POOL]: 'rewardPool',
  [OfferType.OFFER_TYPE_NO_CODE]: 'noCode',
};

/** limit and cursor as page_size and page_token: the admin API's default page is 50 (the service's is 25). */
export function pageToProto(query: { limit?: number; cursor?: string }): {
  pageSize: number;
  pageToken: string;
} {
  return { pageSize: query.limit ?? 50, pageToken: query.cursor ?? '' };
}

/** The REST mode filter; left out is both modes (UNSPECIFIED). */
export function modeFilterToProto(mode: 'test' | 'live' | undefined): programsProgramV1.ProgramMode {
  if (mode === 'test') return ProgramMode.PROGRAM_MODE_TEST;
  if (mode === 'live') return ProgramMode.PROGRAM_MODE_LIVE;
  return ProgramMode.PROGRAM_MODE_UNSPECIFIED;
}

/** An empty next_page_token ends the list. */
const nextCursorOf = (token: string): string | null => token || null;

export function accountOverviewToJson(account: programsV1.AccountOverview): AccountOverviewJson {
  return {
    accountId: account.accountId,
    name: account.name,
    created: epochMs(account.createdAt),
    tokenCount: account.tokenCount,
    programCount: account.programCount,
  };
}

export function accountPageToJson(reply: programsV1.ListAccountsResponse): AccountPageJson {
  return {
    accounts: reply.accounts.map(accountOverviewToJson),
    nextCursor: nextCursorOf(reply.nextPageToken),
  };
}

export function accessTokenToJson(token: programsV1.AccessToken): AccessTokenJson {
  return {
    tokenId: token.tokenId,
    accountId: token.accountId,
    name: token.name,
    roles: tokenRolesFromProto(token.roles),
    created: epochMs(token.createdAt),
    revoked: token.revokedAt ? token.revokedAt.getTime() : null,
  };
}

export function accessTokenPageToJson(reply: programsV1.ListAccessTokensResponse): AccessTokenPageJson {
  return { tokens: reply.tokens.map(accessTokenToJson), nextCursor: nextCursorOf(reply.nextPageToken) };
}

export function programSummaryToJson(program: programsV1.ProgramSummary): ProgramSummaryJson {
  return {
    programId: program.programId,
    accountId: program.accountId,
    name: program.name,
    segment: program.segment,
    mode: modeNames[program.mode] ?? 'test',
    offerType: offerNames[program.offerType] ?? 'noCode',
    created: epochMs(program.createdAt),
    updated: epochMs(program.updatedAt),
  };
}

export function programSummaryPageToJson(reply: programsV1.ListProgramsResponse): ProgramSummaryPageJson {
  return {
    programs: reply.programs.map(programSummaryToJson),
    nextCursor: nextCursorOf(reply.nextPageToken),
  };
}

export function poolLevelToJson(reply: programsV1.GetRewardCodePoolLevelResponse): RewardCodePoolLevelJson {
  return {
    pooled: reply.pooled,
    total: reply.total,
    unused: reply.unused,
    claimed: reply.claimed,
    low: reply.low,
    lowThreshold: reply.lowThreshold,
  };
}

export function secretRotatedToJson(
  reply: programsV1.RotateWebhookSigningSecretResponse,
): WebhookSecretRotatedJson {
  return {
    programId: present(reply.program, 'program').programId,
    webhookSecret: present(reply.signingSecret || undefined, 'signingSecret'),
  };
}
