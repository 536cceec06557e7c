import { organizationsSsoV1, organizationsV1, programsProgramV1, type programsV1 } from '@eligo/proto';
import { LRUCache } from 'lru-cache';
import { callDependency, decodeGrpcError, type GrpcClient } from '@eligo/runtime';
import type { InstantSourceSetting, OfferType, Program } from '../domain/program';

/**
 * Adapters to the services verification calls: the programs service (programs, reward codes and their
 * claims) and the organizations service (eligibility, login pages). They answer the service's own types.
 */

/** The programs service as the flow needs it. */
export interface ProgramsPort {
  /** undefined when the programs service does not know the program. */
  getProgram(programId: string): Promise<Program | undefined>;
  /** The code of a live success: idempotent per verification (a retried claim returns the same code). */
  claimRewardCode(programId: string, verificationId: string): Promise<string>;
}

/** A pool code the programs service handed to a verification and nobody has settled yet. */
export interface RewardClaim {
  programId: string;
  verificationId: string;
  rewardCode: string;
}

/**
 * The programs service as the reward-claim reconciler needs it (the flow's ProgramsPort only claims).
 * Confirm and release are idempotent and name the code, so a stale decision never touches a newer claim.
 */
export interface RewardClaimsPort {
  /** One page of unconfirmed claims made before `claimedBefore` ('' starts; nextPageToken '' ends). */
  list(claimedBefore: Date, pageToken: string): Promise<{ claims: RewardClaim[]; nextPageToken: string }>;
  /** Keeps the code for good; false when the verification no longer holds it. */
  confirm(claim: RewardClaim): Promise<boolean>;
  /** Returns the code to the pool unless the claim is confirmed or was renewed since `claimedBefore`. */
  release(claim: RewardClaim, claimedBefore: Date): Promise<boolean>;
}

export type OrganizationCheck =
  | {
      eligibility: 'eligible';
      /** domains: the organization's email domains (the email loop's test). */
      organization: { id: number; name: string; loginUrl: string; domains: readonly string[] };
    }
  | { eligibility: 'ineligible' | 'unknown' };

/** The organizations service as the flow needs it. */
export interface OrganizationsPort {
  check(programId: string, organization: { id: number; name: string }): Promise<OrganizationCheck>;
  /** The login page of a catalog organization, '' when it has none or is unknown. */
  loginUrl(organizationId: number): Promise<string>;
  /** Whether the organization has single sign-on with its OpenID provider (false when unknown). */
  hasSso(organizationId: number): Promise<boolean>;
  /**
   * Starts a sign-on for the verification: the provider's authorization URL, or undefined when the
   * organization has no single sign-on (any more).
   */
  startSso(
    organizationId: number,
    verificationId: string,
    redirectUri: string,
  ): Promise<{ authorizationUrl: string; state: string } | undefined>;
  /** Finishes the sign-on of the state; undefined when no sign-on has it. */
  finishSso(state: string, callbackUrl: string): Promise<SsoFinish | undefined>;
}

/** What a finished sign-on proved: eligible by the organization's rule, ineligible, or nothing (failed). */
export interface SsoFinish {
  verificationId: string;
  organizationId: number;
  outcome: 'eligible' | 'ineligible' | 'failed';
  /** Why, in the organizations service's words: no personal data, no token. */
  reason: string;
}

/**
 * A finished sign-on runs up to three calls to the provider (token, keys, UserInfo) of
 * ELIGO_ORGANIZATIONS_SSO_HTTP_TIMEOUT_MS (5 s by default) each: more than the dependency deadline, less than
 * the gateway's 10 s.
 */
const SSO_FINISH_DEADLINE_MS = 9000;

type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;

/** Only the service's own NOT_FOUND means "no such thing"; a transport failure travels on as 503/504. */
function isOwnNotFound(err: unknown): boolean {
  const decoded = decodeGrpcError(err);
  return decoded.codeName === 'NOT_FOUND' && decoded.kind !== undefined;
}

const PROGRAM_CACHE_ENTRIES = 10_000;

const { OfferType: ProtoOfferType, ProgramMode, InstantSourceType } = programsProgramV1;
const SOURCE_TYPES = new Map<programsProgramV1.InstantSourceType, InstantSourceSetting['type']>([
  [InstantSourceType.INSTANT_SOURCE_TYPE_LIST, 'list'],
  [InstantSourceType.INSTANT_SOURCE_TYPE_HTTP, 'http'],
]);

/**
 * Opens the HTTP source's sealed secret (InstantMatchHttp.sealed_secret, sealed by the programs service with
 * the deployment's master key, bound to the program id); throws when it does not open.
 */
export type OpenSourceSecret = (sealed: Uint8Array, programId: string) => string;

/** The program's instant-match settings; a secret that does not open leaves the HTTP source out. */
function instantMatchOf(
  p: programsProgramV1.Program,
  openSecret: OpenSourceSecret | undefined,
): Pick<Program, 'instantSources' | 'httpSource' | 'emailLoop'> {
  const instantSources = (p.instantMatch?.sources ?? []).flatMap((s) => {
    const type = SOURCE_TYPES.get(s.type);
    return type ? [{ type, subSegments: s.subSegments }] : [];
  });
  const http = p.instantMatch?.http;
  let secret = '';
  if (http && http.sealedSecret.length > 0 && openSecret) {
    try {
      secret = openSecret(http.sealedSecret, p.programId);
    } catch {
      secret = '';
    }
  }
  return {
    instantSources,
    httpSource: http && http.url && secret ? { url: http.url, secret } : undefined,
    emailLoop: p.instantMatch?.emailLoop === true,
  };
}
const OFFER_TYPES = new Map<programsProgramV1.OfferType, OfferType>([
  [ProtoOfferType.OFFER_TYPE_STATIC_CODE, 'staticCode'],
  [ProtoOfferType.OFFER_TYPE_REWARD_POOL, 'rewardPool'],
]);

/** The programs service's program as the flow reads it (domain/program.ts). */
export function programOf(p: programsProgramV1.Program, openSecret?: OpenSourceSecret): Program {
  return {
    programId: p.programId,
    accountId: p.accountId,
    segment: p.segment,
    subSegments: p.subSegments,
    mode: p.mode === ProgramMode.PROGRAM_MODE_LIVE ? 'live' : 'test',
    startDate: p.startDate,
    endDate: p.endDate,
    offerType: OFFER_TYPES.get(p.offerType) ?? 'noCode',
    rewardCode: p.rewardCode,
    rewardCodesRemaining: p.rewardCodesRemaining,
    redirectUrl: p.redirectUrl,
    consolationRewardCode: p.consolationRewardCode,
    minAge: p.minAge,
    maxAge: p.maxAge,
    documentReview: p.documentReview && {
      maxRejections: p.documentReview.maxRejections,
      maxReviewTime: p.documentReview.maxReviewTime,
      estimatedReviewTime: p.documentReview.estimatedReviewTime,
    },
    locale: p.theme?.intl?.locale ?? '',
    verificationLimit: p.verificationLimit && {
      quantity: p.verificationLimit.quantity,
      days: p.verificationLimit.days,
    },
    subjectTokenKey: p.subjectTokenKey,
    requireAccountTokenToCreate: p.requireAccountTokenToCreate,
    ...instantMatchOf(p, openSecret),
  };
}

/**
 * Both requests of a verification read its program, so programs are kept for `cacheMs` (0 = never): an edit
 * (dates, codes, limits) then applies within that time. Unknown programs are not kept, so that a program
 * created a moment ago is found at once.
 */
export function programsPort(
  client: ProgramsClient,
  cacheMs = 0,
  openSecret?: OpenSourceSecret,
): ProgramsPort {
  const cache =
    cacheMs > 0 ? new LRUCache<string, Program>({ max: PROGRAM_CACHE_ENTRIES, ttl: cacheMs }) : undefined;
  const lookup = async (programId: string): Promise<Program | undefined> => {
    try {
      // An empty account id is a service call: no tenant check.
      const { program } = await callDependency('programs', () =>
        client.unary('getProgram', { programId, accountId: '' }),
      );
      if (!program) return undefined;
      const view = programOf(program, openSecret);
      cache?.set(programId, view);
      return view;
    } catch (err) {
      if (isOwnNotFound(err)) return undefined;
      throw err;
    }
  };
  // When an entry expires, every request in flight misses it at once: they share one lookup.
  const inFlight = new Map<string, Promise<Program | undefined>>();
  return {
    async getProgram(programId) {
      const cached = cache?.get(programId);
      if (cached) return cached;
      if (!cache) return lookup(programId);
      let pending = inFlight.get(programId);
      if (!pending) {
        pending = lookup(programId).finally(() => inFlight.delete(programId));
        inFlight.set(programId, pending);
      }
      return pending;
    },
    async claimRewardCode(programId, verificationId) {
      const reply = await callDependency('programs', () =>
        client.unary('claimRewardCode', { programId, verificationId }),
      );
      return reply.rewardCode;
    },
  };
}

export function rewardClaimsPort(client: ProgramsClient): RewardClaimsPort {
  const call = <T>(fn: () => Promise<T>) => callDependency('programs', fn);
  const claimOf = ({ programId, verificationId, rewardCode }: RewardClaim): RewardClaim => ({
    programId,
    verificationId,
    rewardCode,
  });
  return {
    async list(claimedBefore, pageToken) {
      const reply = await call(() =>
        client.unary('listUnconfirmedRewardClaims', { programId: '', claimedBefore, pageSize: 0, pageToken }),
      );
      return { claims: reply.claims.map(claimOf), nextPageToken: reply.nextPageToken };
    },
    confirm: async (claim) =>
      (await call(() => client.unary('confirmRewardClaim', claimOf(claim)))).confirmed,
    release: async (claim, claimedBefore) =>
      (await call(() => client.unary('releaseRewardClaim', { ...claimOf(claim), claimedBefore }))).released,
  };
}

/**
 * The organizations service as the flow needs it. An organization the program accepts is kept as such for
 * `cacheMs` (0 = never, as programs are: both follow the program's settings): most submissions name one of a
 * few organizations, each check is a call and a statement, and a rule or catalog edit then applies within
 * that time. Refusals are not kept, so that an organization just imported or admitted is accepted at once.
 */
export function organizationsPort(
  client: GrpcClient<typeof organizationsV1.OrganizationsServiceService>,
  cacheMs = 0,
): OrganizationsPort {
  const accepted =
    cacheMs > 0
      ? new LRUCache<string, OrganizationCheck>({ max: PROGRAM_CACHE_ENTRIES, ttl: cacheMs })
      : undefined;
  return {
    async check(programId, organization) {
      const key = JSON.stringify([programId, organization.id, organization.id > 0 ? '' : organization.name]);
      const kept = accepted?.get(key);
      if (kept) return kept;
      const check = await checkEligibility(client, programId, organization);
      if (check.eligibility === 'eligible') accepted?.set(key, check);
      return check;
    },
    async loginUrl(organizationId) {
      try {
        const reply = await callDependency('organizations', () =>
          client.unary('getOrganization', { organizationId }),
        );
        return reply.organization?.loginUrl ?? '';
      } catch (err) {
        if (isOwnNotFound(err)) return '';
        throw err;
      }
    },
    async hasSso(organizationId) {
      return (
        (await unlessNotFound(() => client.unary('getOrganizationSso', { organizationId }))) !== undefined
      );
    },
    async startSso(organizationId, verificationId, redirectUri) {
      const reply = await unlessNotFound(() =>
        client.unary('startSsoSignOn', { organizationId, verificationId, redirectUri }),
      );
      if (!reply) return undefined;
      // The state the organizations service put in the request: the callback must come back with it.
      const state = new URL(reply.authorizationUrl).searchParams.get('state') ?? '';
      return { authorizationUrl: reply.authorizationUrl, state };
    },
    async finishSso(state, callbackUrl) {
      const reply = await unlessNotFound(() =>
        client.unary('finishSsoSignOn', { state, callbackUrl }, { deadlineMs: SSO_FINISH_DEADLINE_MS }),
      );
      if (!reply) return undefined;
      const { SsoOutcome } = organizationsSsoV1;
      const outcome =
        reply.outcome === SsoOutcome.SSO_OUTCOME_ELIGIBLE
          ? 'eligible'
          : reply.outcome === SsoOutcome.SSO_OUTCOME_INELIGIBLE
            ? 'ineligible'
            : 'failed';
      return {
        verificationId: reply.verificationId,
        organizationId: reply.organizationId,
        outcome,
        reason: reply.reason,
      };
    },
  };
}

/** The organizations service's answer on an organization for a program. */
async function checkEligibility(
  client: GrpcClient<typeof organizationsV1.OrganizationsServiceService>,
  programId: string,
  organization: { id: number; name: string },
): Promise<OrganizationCheck> {
  const reply = await callDependency('organizations', () =>
    client.unary('checkEligibility', {
      programId,
      organizationId: organization.id,
      organizationName: organization.id > 0 ? '' : organization.name,
    }),
  );
  const { Eligibility } = organizationsV1;
  if (reply.eligibility === Eligibility.ELIGIBILITY_ELIGIBLE && reply.organization)
    return {
      eligibility: 'eligible',
      organization: {
        id: reply.organization.id,
        name: reply.organization.name,
        loginUrl: reply.organization.loginUrl,
        domains: reply.organization.domains,
      },
    };
  return {
    eligibility: reply.eligibility === Eligibility.ELIGIBILITY_INELIGIBLE ? 'ineligible' : 'unknown',
  };
}

/**
 * A call to the organizations service whose NOT_FOUND (its own: the organization, its sign-on or the state is
 * unknown) is undefined; a transport failure travels on as 503/504.
 */
async function unlessNotFound<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await callDependency('organizations', call);
  } catch (err) {
    if (isOwnNotFound(err)) return undefined;
    throw err;
  }
}
