import { programsProgramV1, programsV1 } from '@eligo/proto';
import type { WebhookDelivery } from '../domain/webhook';
import type { ProgramInput } from '../domain/program-changes';
import { invalidRequest } from '../domain/invalid';
import type { AccountOverview } from '../domain/accounts';
import type { OfferType, Program, ProgramMode, ProgramSummary, WebhookNotification } from '../domain/program';
import type { LocaleTexts, Theme } from '../domain/theme';
import type { TokenRole, TokenSummary } from '../domain/tokens';
import type { InstantSourceType } from '../domain/instant-match';

/**
 * Protobuf <-> domain for the programs service (docs/architecture.md, "The service template"): the one module
 * the handlers convert through, and events/publish.ts for program snapshots. It imports only domain/, so the
 * publisher (imported by app/) can use it without an import circle.
 */

/**
 * Program: proto <-> domain. Proto3 leaves unset messages undefined and unset enums at 0 (UNSPECIFIED); the
 * domain says null and undefined, so that "not given" is never mistaken for a value.
 */
const { ProgramMode: PM, OfferType: OT, WebhookNotification: WN, InstantSourceType: IST } = programsProgramV1;

const sourceTypeToProto: Record<InstantSourceType, programsProgramV1.InstantSourceType> = {
  LIST: IST.INSTANT_SOURCE_TYPE_LIST,
  HTTP: IST.INSTANT_SOURCE_TYPE_HTTP,
};
/** UNSPECIFIED and unknown numbers pass on as names the domain refuses with the other problems. */
const sourceTypeFromProto = new Map<number, string>(
  Object.entries(sourceTypeToProto).map(([name, value]) => [value, name] as [number, string]),
);

/** null when the request names no instant-match settings. */
function instantMatchFromProto(m: programsProgramV1.InstantMatch | undefined): ProgramInput['instantMatch'] {
  if (!m) return null;
  return {
    sources: m.sources.map((s) => ({
      type: sourceTypeFromProto.get(s.type) ?? String(s.type),
      subSegments: [...s.subSegments],
    })),
    httpUrl: m.http ? m.http.url : null,
    emailLoop: m.emailLoop,
    secret: m.http?.secret ?? '',
  };
}

/** Never the secret in clear: only sealed, for the verification service (program.proto InstantMatchHttp). */
function instantMatchToProto(program: Program): programsProgramV1.InstantMatch {
  const { sources, httpUrl, emailLoop } = program.instantMatch;
  return {
    emailLoop: emailLoop === true,
    sources: sources.map((s) => ({ type: sourceTypeToProto[s.type], subSegments: [...s.subSegments] })),
    http:
      httpUrl === null
        ? undefined
        : { url: httpUrl, secret: '', sealedSecret: program.instantSourceSealedSecret ?? Buffer.alloc(0) },
  };
}

const modeFromProto = new Map<number, ProgramMode>([
  [PM.PROGRAM_MODE_TEST, 'TEST'],
  [PM.PROGRAM_MODE_LIVE, 'LIVE'],
]);
const offerFromProto = new Map<number, OfferType>([
  [OT.OFFER_TYPE_STATIC_CODE, 'STATIC_CODE'],
  [OT.OFFER_TYPE_REWARD_POOL, 'REWARD_POOL'],
  [OT.OFFER_TYPE_NO_CODE, 'NO_CODE'],
]);
const modeToProto: Record<ProgramMode, programsProgramV1.ProgramMode> = {
  TEST: PM.PROGRAM_MODE_TEST,
  LIVE: PM.PROGRAM_MODE_LIVE,
};
const offerToProto: Record<OfferType, programsProgramV1.OfferType> = {
  STATIC_CODE: OT.OFFER_TYPE_STATIC_CODE,
  REWARD_POOL: OT.OFFER_TYPE_REWARD_POOL,
  NO_CODE: OT.OFFER_TYPE_NO_CODE,
};

const notificationToProto: Record<WebhookNotification, programsProgramV1.WebhookNotification> = {
  DOCUMENT_REJECTED: WN.WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED,
  MAX_DOC_UPLOAD_ATTEMPTS: WN.WEBHOOK_NOTIFICATION_MAX_DOC_UPLOAD_ATTEMPTS,
  EXPIRATION: WN.WEBHOOK_NOTIFICATION_EXPIRATION,
};
const notificationFromProto = new Map<number, string>([
  [WN.WEBHOOK_NOTIFICATION_UNSPECIFIED, 'UNSPECIFIED'],
  ...Object.entries(notificationToProto).map(([name, value]) => [value, name] as [number, string]),
]);

/**
 * Notifications as names for the domain to check: UNSPECIFIED, and a number the contract does not know as
 * that number, are passed on so that the domain refuses them with the other problems of the request.
 */
export function notificationsFromProto(values: readonly number[]): string[] {
  return values.map((value) => notificationFromProto.get(value) ?? String(value));
}

function notificationsToProto(
  names: readonly WebhookNotification[],
): programsProgramV1.WebhookNotification[] {
  return names.map((name) => notificationToProto[name]);
}

/** 0 = unspecified (undefined); a number the contract does not know is refused. */
function enumFromProto<T>(field: string, value: number, known: Map<number, T>): T | undefined {
  if (value === 0) return undefined;
  const mapped = known.get(value);
  if (mapped === undefined) throw invalidRequest(`${field}: unknown value ${value}`);
  return mapped;
}

export function programInputFromProto(p: programsProgramV1.Program | undefined): ProgramInput {
  const program = p ?? programsProgramV1.Program.create();
  const intl = program.theme?.intl;
  return {
    accountId: program.accountId,
    name: program.name,
    segment: program.segment,
    subSegments: [...program.subSegments],
    mode: enumFromProto('mode', program.mode, modeFromProto),
    startDate: program.startDate ?? null,
    endDate: program.endDate ?? null,
    offerType: enumFromProto('offerType', program.offerType, offerFromProto),
    rewardCode: program.rewardCode ?? null,
    redirectUrl: program.redirectUrl ?? null,
    consolationRewardCode: program.consolationRewardCode ?? null,
    minAge: program.minAge ?? null,
    maxAge: program.maxAge ?? null,
    countries: [...program.countries],
    documentReview: program.documentReview ? { ...program.documentReview } : null,
    organizationRules: program.organizationRules
      ? {
          types: [...program.organizationRules.types],
          countries: [...program.organizationRules.countries],
          includeIds: [...program.organizationRules.includeIds],
          excludeIds: [...program.organizationRules.excludeIds],
        }
      : null,
    theme: program.theme
      ? {
          locale: intl?.locale ?? '',
          messages: { ...intl?.messages },
          errorId: { ...intl?.errorId },
          locales: copyLocales(intl?.locales),
          customCss: program.theme.customCss,
        }
      : null,
    webhook: program.webhook
      ? {
          callbackUri: program.webhook.callbackUri,
          notifications: notificationsFromProto(program.webhook.notifications),
        }
      : null,
    verificationLimit: program.verificationLimit ? { ...program.verificationLimit } : null,
    // proto3 string: empty is none.
    subjectTokenKey: program.subjectTokenKey === '' ? null : program.subjectTokenKey,
    requireAccountTokenToCreate: program.requireAccountTokenToCreate,
    embedOrigins: [...program.embedOrigins],
    instantMatch: instantMatchFromProto(program.instantMatch),
  };
}

/** A theme's translations, copied (proto's LocaleMessages and the domain's LocaleTexts have one shape). */
function copyLocales(locales: Record<string, LocaleTexts> | undefined): Record<string, LocaleTexts> {
  return Object.fromEntries(
    Object.entries(locales ?? {}).map(([tag, t]) => [
      tag,
      { messages: { ...t.messages }, errorId: { ...t.errorId } },
    ]),
  );
}

export function themeToProto(theme: Theme): programsProgramV1.Theme {
  return {
    intl: {
      locale: theme.locale,
      messages: { ...theme.messages },
      errorId: { ...theme.errorId },
      locales: copyLocales(theme.locales),
    },
    customCss: theme.customCss,
  };
}

/**
 * The program as every reader gets it (replies and event snapshots): no secret in clear (the HTTP source's
 * travels sealed, for the verification service).
 */
export function programToProto(program: Program): programsProgramV1.Program {
  return {
    programId: program.id,
    accountId: program.accountId,
    name: program.name,
    segment: program.segment,
    subSegments: [...program.subSegments],
    mode: modeToProto[program.mode],
    startDate: program.startDate ?? undefined,
    endDate: program.endDate ?? undefined,
    offerType: offerToProto[program.offerType],
    rewardCode: program.rewardCode ?? undefined,
    rewardCodesRemaining: program.rewardCodesRemaining,
    redirectUrl: program.redirectUrl ?? undefined,
    consolationRewardCode: program.consolationRewardCode ?? undefined,
    minAge: program.minAge ?? undefined,
    maxAge: program.maxAge ?? undefined,
    countries: [...program.countries],
    documentReview: { ...program.documentReview },
    organizationRules: {
      types: [...program.organizationRules.types],
      countries: [...program.organizationRules.countries],
      includeIds: [...program.organizationRules.includeIds],
      excludeIds: [...program.organizationRules.excludeIds],
    },
    theme: themeToProto(program.theme),
    webhook: program.webhook
      ? {
          callbackUri: program.webhook.callbackUri,
          createdAt: program.webhook.createdAt,
          notifications: notificationsToProto(program.webhook.notifications),
        }
      : undefined,
    verificationLimit: program.verificationLimit ? { ...program.verificationLimit } : undefined,
    subjectTokenKey: program.subjectTokenKey ?? '',
    requireAccountTokenToCreate: program.requireAccountTokenToCreate,
    embedOrigins: [...program.embedOrigins],
    instantMatch: instantMatchToProto(program),
    createdAt: program.createdAt,
    updatedAt: program.updatedAt,
  };
}

/** The mode filter of ListPrograms: UNSPECIFIED is both modes (undefined), an unknown number refused. */
export function modeFilterFromProto(value: number): ProgramMode | undefined {
  return enumFromProto('mode', value, modeFromProto);
}

/** A program as lists show it (ListPrograms). */
export function programSummaryToProto(program: ProgramSummary): programsV1.ProgramSummary {
  return {
    programId: program.id,
    accountId: program.accountId,
    name: program.name,
    segment: program.segment,
    mode: modeToProto[program.mode],
    offerType: offerToProto[program.offerType],
    createdAt: program.createdAt,
    updatedAt: program.updatedAt,
  };
}

export function accountOverviewToProto(account: AccountOverview): programsV1.AccountOverview {
  return {
    accountId: account.id,
    name: account.name,
    createdAt: account.createdAt,
    tokenCount: account.tokenCount,
    programCount: account.programCount,
  };
}

/** A token as ListAccessTokens shows it: a TokenSummary has no credential to leave out. */
export function accessTokenToProto(token: TokenSummary): programsV1.AccessToken {
  return {
    tokenId: token.id,
    accountId: token.accountId,
    name: token.name,
    roles: rolesToProto(token.roles),
    createdAt: token.createdAt,
    revokedAt: token.revokedAt ?? undefined,
  };
}

/** GetWebhookDelivery: empty callback URI and secret (no notifications, no configured_at) without a webhook. */
export function webhookDeliveryToProto(delivery: WebhookDelivery): programsV1.GetWebhookDeliveryResponse {
  const { webhook } = delivery;
  return {
    callbackUri: webhook?.callbackUri ?? '',
    signingSecret: webhook?.signingSecret ?? '',
    notifications: notificationsToProto(webhook?.notifications ?? []),
    mode: modeToProto[delivery.mode],
    accountId: delivery.accountId,
    configuredAt: webhook?.createdAt,
  };
}

/** Token roles: proto <-> domain. */
const { TokenRole: TR } = programsV1;

const roleFromProto = new Map<number, TokenRole>([
  [TR.TOKEN_ROLE_REPORTER, 'REPORTER'],
  [TR.TOKEN_ROLE_PII, 'PII'],
  [TR.TOKEN_ROLE_BULK_VERIFIER, 'BULK_VERIFIER'],
]);
const roleToProto: Record<TokenRole, programsV1.TokenRole> = {
  REPORTER: TR.TOKEN_ROLE_REPORTER,
  PII: TR.TOKEN_ROLE_PII,
  BULK_VERIFIER: TR.TOKEN_ROLE_BULK_VERIFIER,
};

/** UNSPECIFIED carries no meaning and is dropped; a role the contract does not know is refused. */
export function rolesFromProto(roles: readonly number[]): TokenRole[] {
  const out: TokenRole[] = [];
  for (const value of roles) {
    if (value === TR.TOKEN_ROLE_UNSPECIFIED) continue;
    const role = roleFromProto.get(value);
    if (role === undefined) throw invalidRequest(`roles: unknown role ${value}`);
    out.push(role);
  }
  return out;
}

export function rolesToProto(roles: readonly TokenRole[]): programsV1.TokenRole[] {
  return roles.map((role) => roleToProto[role]);
}
