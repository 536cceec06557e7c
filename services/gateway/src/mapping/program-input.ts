import { programsProgramV1 } from '@eligo/proto';
import { invalidArgument } from '@eligo/runtime';
import type { ProgramCreateBody, ProgramPatchBody } from '../endpoints/admin-programs';
import { copyLocales } from './theme-locales';
import { webhookNotificationsToProto } from './webhook-notification';

/** The bodies as their schemas (endpoints/admin-programs-input.ts) check them; null means "none" (clear). */
type ProgramSettingsInput = ProgramPatchBody;
type ThemeInput = NonNullable<ProgramSettingsInput['theme']>;
type WebhookInput = NonNullable<ProgramSettingsInput['webhook']>;

const { Program, ProgramMode, OfferType } = programsProgramV1;
type Program = programsProgramV1.Program;
type Settings = Required<ProgramSettingsInput>;
type Setter<K extends keyof Settings> = (program: Program, value: Settings[K]) => void;

const modes = { test: ProgramMode.PROGRAM_MODE_TEST, live: ProgramMode.PROGRAM_MODE_LIVE } as const;
const offers = {
  staticCode: OfferType.OFFER_TYPE_STATIC_CODE,
  rewardPool: OfferType.OFFER_TYPE_REWARD_POOL,
  noCode: OfferType.OFFER_TYPE_NO_CODE,
} as const;

/** How each settings key lands on Program; null (or absent) leaves the proto field at its empty value. */
const setters: { [K in keyof Settings]: Setter<K> } = {
  name: (p, v) => void (p.name = v ?? ''),
  segment: (p, v) => void (p.segment = v ?? ''),
  subSegments: (p, v) => void (p.subSegments = v ?? []),
  mode: (p, v) => void (p.mode = v ? modes[v] : ProgramMode.PROGRAM_MODE_UNSPECIFIED),
  startDate: (p, v) => void (p.startDate = v == null ? undefined : instant('startDate', v)),
  endDate: (p, v) => void (p.endDate = v == null ? undefined : instant('endDate', v)),
  offerType: (p, v) => void (p.offerType = v ? offers[v] : OfferType.OFFER_TYPE_UNSPECIFIED),
  rewardCode: (p, v) => void (p.rewardCode = v ?? undefined),
  redirectUrl: (p, v) => void (p.redirectUrl = v ?? undefined),
  consolationRewardCode: (p, v) => void (p.consolationRewardCode = v ?? undefined),
  minAge: (p, v) => void (p.minAge = v ?? undefined),
  maxAge: (p, v) => void (p.maxAge = v ?? undefined),
  countries: (p, v) => void (p.countries = v ?? []),
  maxRejections: (p, v) => void (review(p).maxRejections = v ?? DEFAULT_MAX_REJECTIONS),
  maxReviewTime: (p, v) => void (review(p).maxReviewTime = v ?? ''),
  estimatedReviewTime: (p, v) => void (review(p).estimatedReviewTime = v ?? ''),
  organizationRules: (p, v) =>
    void (p.organizationRules = v
      ? {
          types: v.types ?? [],
          countries: v.countries ?? [],
          includeIds: v.includeIds ?? [],
          excludeIds: v.excludeIds ?? [],
        }
      : undefined),
  theme: (p, v) => void (p.theme = v ? themeToProto(v) : undefined),
  webhook: (p, v) => void (p.webhook = v ? webhookToProto(v) : undefined),
  verificationLimit: (p, v) =>
    void (p.verificationLimit = v ? { quantity: v.quantity, days: v.days } : undefined),
  subjectTokenKey: (p, v) => void (p.subjectTokenKey = v ?? ''),
  requireAccountTokenToCreate: (p, v) => void (p.requireAccountTokenToCreate = v ?? false),
  embedOrigins: (p, v) => void (p.embedOrigins = v ?? []),
  instantMatch: (p, v) => void (p.instantMatch = v ? instantMatchToProto(v) : undefined),
};

const sourceTypes = {
  list: programsProgramV1.InstantSourceType.INSTANT_SOURCE_TYPE_LIST,
  http: programsProgramV1.InstantSourceType.INSTANT_SOURCE_TYPE_HTTP,
} as const;

/** The secret goes in `secret` only; sealed_secret is the programs service's to fill. */
function instantMatchToProto(v: NonNullable<Settings['instantMatch']>): programsProgramV1.InstantMatch {
  return {
    sources: v.sources.map((s) => ({ type: sourceTypes[s.type], subSegments: s.subSegments ?? [] })),
    http: v.http
      ? { url: v.http.url, secret: v.http.secret ?? '', sealedSecret: Buffer.alloc(0) }
      : undefined,
    emailLoop: v.emailLoop === true,
  };
}

const settingKeys = Object.keys(setters) as (keyof Settings)[];

/**
 * The three review keys are flat in JSON but one message in proto (Program.document_review); each maps to
 * its own sub-path, so a patch of one leaves the stored others alone. Every other key is its proto field in
 * snake_case.
 */
export function updateMaskPath(key: keyof Settings): string {
  const path = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return (reviewKeys as readonly string[]).includes(key) ? `document_review.${path}` : path;
}

const reviewKeys = ['maxRejections', 'maxReviewTime', 'estimatedReviewTime'] as const;

/** ProgramCreateRequest (already validated) -> the Program of CreateProgram; absent and null are the same. */
export function programCreateToProto(input: ProgramCreateBody): Program {
  const program = Program.fromPartial({ accountId: input.accountId });
  for (const key of settingKeys) {
    const value = input[key];
    if (value !== undefined && value !== null) apply(program, key, value);
  }
  return program;
}

/**
 * ProgramPatchRequest (a JSON merge patch, already validated) -> Program + update_mask: every key present is
 * named in the mask, with its value or, for null, the empty value that clears it. Keys absent stay out of the
 * mask and so keep their stored value. The mask is never empty: UpdateProgram refuses that.
 */
export function programPatchToProto(patch: ProgramSettingsInput): { program: Program; updateMask: string[] } {
  const program = Program.fromPartial({});
  const updateMask: string[] = [];
  for (const key of settingKeys) {
    if (!Object.hasOwn(patch, key) || patch[key] === undefined) continue;
    apply(program, key, patch[key]);
    updateMask.push(updateMaskPath(key));
  }
  if (updateMask.length === 0) throw invalidArgument('body must name at least one setting', invalidRequest);
  return { program, updateMask };
}

function apply<K extends keyof Settings>(program: Program, key: K, value: Settings[K]): void {
  setters[key](program, value);
}

/**
 * The documented default of maxRejections. proto3 cannot tell "0" from "not sent" in DocumentReview, so a
 * create naming only the review times must carry the default itself.
 */
export const DEFAULT_MAX_REJECTIONS = 3;

function review(program: Program): programsProgramV1.DocumentReview {
  program.documentReview ??= {
    maxRejections: DEFAULT_MAX_REJECTIONS,
    maxReviewTime: '',
    estimatedReviewTime: '',
  };
  return program.documentReview;
}

/** The webhook setting and WebhookRequest alike; created_at is the service's to set. */
export function webhookToProto(webhook: WebhookInput): programsProgramV1.Webhook {
  return {
    callbackUri: webhook.callbackUri,
    createdAt: undefined,
    notifications: webhookNotificationsToProto(webhook.notifierEventTypes),
  };
}

function themeToProto(theme: ThemeInput): programsProgramV1.Theme {
  return {
    intl: {
      locale: theme.intl?.locale ?? '',
      messages: { ...theme.intl?.messages },
      errorId: { ...theme.intl?.errorId },
      locales: copyLocales(theme.intl?.locales),
    },
    customCss: theme.customCss ?? '',
  };
}

const invalidRequest = { errorIds: ['invalidRequest'] };
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` is UTC midnight of that day; anything else is an RFC 3339 date-time (the schema checked). */
function instant(field: string, value: string): Date {
  const date = DATE_ONLY.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw invalidArgument(
      `body.${field} must be a date (YYYY-MM-DD) or an RFC 3339 date-time`,
      invalidRequest,
    );
  }
  return date;
}
