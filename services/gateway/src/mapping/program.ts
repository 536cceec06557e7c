import { programsProgramV1 } from '@eligo/proto';
import type { ProgramJson, ThemeJson } from './program-json';
import { copyLocales } from './theme-locales';
import { webhookNotificationsFromProto } from './webhook-notification';

export type * from './program-json';
export { programCreateToProto, programPatchToProto } from './program-input';

const { ProgramMode, OfferType } = programsProgramV1;
type Program = programsProgramV1.Program;

const modeNames: Partial<Record<programsProgramV1.ProgramMode, ProgramJson['mode']>> = {
  [ProgramMode.PROGRAM_MODE_TEST]: 'test',
  [ProgramMode.PROGRAM_MODE_LIVE]: 'live',
};
const offerNames: Partial<Record<programsProgramV1.OfferType, ProgramJson['offerType']>> = {
  [OfferType.OFFER_TYPE_STATIC_CODE]: 'staticCode',
  [OfferType.OFFER_TYPE_REWARD_POOL]: 'rewardPool',
  [OfferType.OFFER_TYPE_NO_CODE]: 'noCode',
};

/**
 * Program (proto) -> the program configuration JSON. The webhook signing secret is never part of Program;
 * the one reply that set the webhook passes it here to show it once.
 */
export function programToJson(program: Program, webhookSigningSecret?: string): ProgramJson {
  const review = program.documentReview;
  const rules = program.organizationRules;
  const webhook = program.webhook;
  const limit = program.verificationLimit;
  return {
    programId: program.programId,
    accountId: program.accountId,
    name: program.name,
    segment: program.segment,
    subSegments: [...program.subSegments],
    // Unspecified is what the service defaults to: test mode, no code.
    mode: modeNames[program.mode] ?? 'test',
    startDate: program.startDate?.toISOString() ?? null,
    endDate: program.endDate?.toISOString() ?? null,
    offerType: offerNames[program.offerType] ?? 'noCode',
    rewardCode: program.rewardCode ?? null,
    rewardCodesRemaining: program.rewardCodesRemaining,
    redirectUrl: program.redirectUrl ?? null,
    consolationRewardCode: program.consolationRewardCode ?? null,
    minAge: program.minAge ?? null,
    maxAge: program.maxAge ?? null,
    countries: [...program.countries],
    maxRejections: review?.maxRejections ?? 0,
    maxReviewTime: review?.maxReviewTime || null,
    estimatedReviewTime: review?.estimatedReviewTime || null,
    organizationRules: {
      types: [...(rules?.types ?? [])],
      countries: [...(rules?.countries ?? [])],
      includeIds: [...(rules?.includeIds ?? [])],
      excludeIds: [...(rules?.excludeIds ?? [])],
    },
    theme: themeToJson(program.theme),
    webhook: webhook
      ? {
          callbackUri: webhook.callbackUri,
          notifierEventTypes: webhookNotificationsFromProto(webhook.notifications),
          created: epochMs(webhook.createdAt),
          ...(webhookSigningSecret ? { signingSecret: webhookSigningSecret } : {}),
        }
      : null,
    verificationLimit: limit ? { quantity: limit.quantity, days: limit.days } : null,
    subjectTokenKey: program.subjectTokenKey || null,
    requireAccountTokenToCreate: program.requireAccountTokenToCreate,
    embedOrigins: [...program.embedOrigins],
    instantMatch: instantMatchToJson(program.instantMatch),
    created: epochMs(program.createdAt),
    updated: epochMs(program.updatedAt),
  };
}

const sourceTypeNames: Partial<Record<programsProgramV1.InstantSourceType, 'list' | 'http'>> = {
  [programsProgramV1.InstantSourceType.INSTANT_SOURCE_TYPE_LIST]: 'list',
  [programsProgramV1.InstantSourceType.INSTANT_SOURCE_TYPE_HTTP]: 'http',
};

/** The sources and the endpoint's URL: never the secret (sealed_secret stays between the services). */
function instantMatchToJson(m: programsProgramV1.InstantMatch | undefined): ProgramJson['instantMatch'] {
  return {
    sources: (m?.sources ?? []).flatMap((s) => {
      const type = sourceTypeNames[s.type];
      return type ? [{ type, subSegments: [...s.subSegments] }] : [];
    }),
    http: m?.http ? { url: m.http.url } : null,
    emailLoop: m?.emailLoop === true,
  };
}

export function themeToJson(theme: programsProgramV1.Theme | undefined): ThemeJson {
  return {
    intl: {
      locale: theme?.intl?.locale ?? '',
      messages: { ...theme?.intl?.messages },
      errorId: { ...theme?.intl?.errorId },
      locales: copyLocales(theme?.intl?.locales),
    },
    customCss: theme?.customCss ?? '',
  };
}

/** A reply field the contract always sets; its absence is a service bug (500, logged), not a client error. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`service replied without ${what}`);
  return value;
}

export function epochMs(date: Date | undefined): number {
  return date?.getTime() ?? 0;
}
