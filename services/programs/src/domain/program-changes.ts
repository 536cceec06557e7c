import { conflict } from '@eligo/runtime';
import { Problems } from './invalid';
import {
  DEFAULT_MAX_REJECTIONS,
  defaultDocumentReview,
  emptyOrganizationRules,
  emptyTheme,
  type DocumentReview,
  type OfferType,
  type OrganizationRules,
  type Program,
  type ProgramMode,
  type ProgramSettings,
  type VerificationLimit,
  type WebhookSettings,
} from './program';
import type { Theme } from './theme';
import {
  checkWebhook,
  validateProgramSettings,
  type SettingsInput,
  type WebhookInput,
} from './program-validation';
import type { AllowCidrs } from './webhook-address';
import {
  instantSourceSecretProblem,
  noInstantMatch,
  type InstantMatchSettings,
  type InstantMatchSettingsInput,
} from './instant-match';

/**
 * A program as a request states it: enums may be unspecified (undefined) and messages unset (null), which
 * create turns into defaults and an update mask turns into "clear this field".
 */
export interface ProgramInput {
  accountId: string;
  name: string;
  segment: string;
  subSegments: string[];
  mode: ProgramMode | undefined;
  startDate: Date | null;
  endDate: Date | null;
  offerType: OfferType | undefined;
  rewardCode: string | null;
  redirectUrl: string | null;
  consolationRewardCode: string | null;
  minAge: number | null;
  maxAge: number | null;
  countries: string[];
  documentReview: DocumentReview | null;
  organizationRules: OrganizationRules | null;
  theme: Theme | null;
  webhook: WebhookInput | null;
  verificationLimit: VerificationLimit | null;
  /** null (or blank) = none. */
  subjectTokenKey: string | null;
  requireAccountTokenToCreate: boolean;
  /** Empty = none. */
  embedOrigins: string[];
  /** null = no sources; `secret` is the HTTP source's ('' = none given: an update keeps the stored one). */
  instantMatch: (InstantMatchSettingsInput & { secret: string }) | null;
}

/** What a create or update does to the HTTP source's secret (stored sealed, never shown). */
export type SourceSecretChange = { kind: 'keep' } | { kind: 'set'; secret: string } | { kind: 'clear' };

export const DEFAULT_MODE: ProgramMode = 'TEST';
export const DEFAULT_OFFER_TYPE: OfferType = 'NO_CODE';

/**
 * Create: defaults for what the request leaves unspecified, then the one validator (webhook included, its
 * address judged with `allowCidrs`: checkWebhook).
 */
export async function settingsForCreate(
  input: ProgramInput,
  allowCidrs?: AllowCidrs,
): Promise<{
  settings: ProgramSettings;
  webhook: WebhookSettings | null;
  sourceSecret: SourceSecretChange;
}> {
  const problems = new Problems();
  const webhook = input.webhook ? checkWebhook(problems, 'webhook.', input.webhook, allowCidrs) : null;
  const settings = await validateProgramSettings(withDefaults(input), problems, allowCidrs);
  const sourceSecret = sourceSecretChange(problems, settings.instantMatch, input, null);
  problems.throwIfAny();
  return { settings, webhook, sourceSecret };
}

/**
 * The secret goes with the HTTP source's URL: required with a new URL (a secret never follows an endpoint to
 * another host), kept when the URL stays and none is given, removed with the HTTP source. Problems are added
 * to `problems`, which the caller throws.
 */
function sourceSecretChange(
  problems: Problems,
  settings: InstantMatchSettings,
  input: ProgramInput,
  current: Pick<Program, 'instantMatch' | 'instantSourceSealedSecret'> | null,
): SourceSecretChange {
  const given = input.instantMatch?.secret ?? '';
  const stored = current?.instantSourceSealedSecret ? current.instantMatch.httpUrl : null;
  if (settings.httpUrl === null) {
    if (given) problems.add('instantMatch.http.secret', 'is allowed only with an HTTP source');
    return stored !== null ? { kind: 'clear' } : { kind: 'keep' };
  }
  if (given) {
    const p = instantSourceSecretProblem(given);
    if (p) problems.add('instantMatch.http.secret', p);
    return { kind: 'set', secret: given };
  }
  if (stored !== null && stored === settings.httpUrl) return { kind: 'keep' };
  problems.add('instantMatch.http.secret', 'is required with a new HTTP source URL');
  return { kind: 'keep' };
}

function withDefaults(input: ProgramInput): SettingsInput {
  return {
    name: input.name,
    segment: input.segment,
    subSegments: input.subSegments,
    mode: input.mode ?? DEFAULT_MODE,
    startDate: input.startDate,
    endDate: input.endDate,
    offerType: input.offerType ?? DEFAULT_OFFER_TYPE,
    rewardCode: input.rewardCode,
    redirectUrl: input.redirectUrl,
    consolationRewardCode: input.consolationRewardCode,
    minAge: input.minAge,
    maxAge: input.maxAge,
    countries: input.countries,
    documentReview: input.documentReview ?? defaultDocumentReview(),
    organizationRules: input.organizationRules ?? emptyOrganizationRules(),
    theme: input.theme ?? emptyTheme(),
    verificationLimit: input.verificationLimit,
    subjectTokenKey: input.subjectTokenKey,
    requireAccountTokenToCreate: input.requireAccountTokenToCreate,
    embedOrigins: input.embedOrigins,
    instantMatch: input.instantMatch ?? noInstantMatch(),
  };
}

/** Update-mask paths (snake_case, as in program.proto), each copying one field of the request. */
const SETTERS = {
  name: (s, i) => (s.name = i.name),
  segment: (s, i) => (s.segment = i.segment),
  sub_segments: (s, i) => (s.subSegments = i.subSegments),
  mode: (s, i) => (s.mode = i.mode ?? DEFAULT_MODE),
  start_date: (s, i) => (s.startDate = i.startDate),
  end_date: (s, i) => (s.endDate = i.endDate),
  offer_type: (s, i) => (s.offerType = i.offerType ?? DEFAULT_OFFER_TYPE),
  reward_code: (s, i) => (s.rewardCode = i.rewardCode),
  redirect_url: (s, i) => (s.redirectUrl = i.redirectUrl),
  consolation_reward_code: (s, i) => (s.consolationRewardCode = i.consolationRewardCode),
  min_age: (s, i) => (s.minAge = i.minAge),
  max_age: (s, i) => (s.maxAge = i.maxAge),
  countries: (s, i) => (s.countries = i.countries),
  document_review: (s, i) => (s.documentReview = i.documentReview ?? defaultDocumentReview()),
  // One review setting alone, the others kept: callers need not read the program first (AIP-161 sub-paths).
  'document_review.max_rejections': (s, i) =>
    (s.documentReview = {
      ...(s.documentReview ?? defaultDocumentReview()),
      maxRejections: i.documentReview?.maxRejections ?? DEFAULT_MAX_REJECTIONS,
    }),
  'document_review.max_review_time': (s, i) =>
    (s.documentReview = {
      ...(s.documentReview ?? defaultDocumentReview()),
      maxReviewTime: i.documentReview?.maxReviewTime ?? '',
    }),
  'document_review.estimated_review_time': (s, i) =>
    (s.documentReview = {
      ...(s.documentReview ?? defaultDocumentReview()),
      estimatedReviewTime: i.documentReview?.estimatedReviewTime ?? '',
    }),
  organization_rules: (s, i) => (s.organizationRules = i.organizationRules ?? emptyOrganizationRules()),
  theme: (s, i) => (s.theme = i.theme ?? emptyTheme()),
  verification_limit: (s, i) => (s.verificationLimit = i.verificationLimit),
  subject_token_key: (s, i) => (s.subjectTokenKey = i.subjectTokenKey),
  require_account_token_to_create: (s, i) => (s.requireAccountTokenToCreate = i.requireAccountTokenToCreate),
  embed_origins: (s, i) => (s.embedOrigins = i.embedOrigins),
  // The secret is not a setting (planUpdate handles it); the sources and URL are.
  instant_match: (s, i) => (s.instantMatch = i.instantMatch ?? noInstantMatch()),
  // The webhook is not a setting (it has a secret); planUpdate handles it.
  webhook: () => undefined,
} satisfies Record<string, (settings: SettingsInput, input: ProgramInput) => unknown>;

export type UpdatePath = keyof typeof SETTERS;
export const UPDATABLE_PATHS = Object.keys(SETTERS) as UpdatePath[];
const IMMUTABLE_PATHS = ['program_id', 'account_id', 'created_at', 'updated_at', 'reward_codes_remaining'];

export type WebhookChange = { kind: 'keep' } | { kind: 'set'; webhook: WebhookSettings } | { kind: 'clear' };

export interface UpdatePlan {
  settings: ProgramSettings;
  webhook: WebhookChange;
  sourceSecret: SourceSecretChange;
}

/**
 * Update: the fields named by the mask are taken from the request (unset = cleared, or reset to the default
 * where there is one), the merged result passes the create validator, and a webhook or limit is only set
 * where none exists (as with their own RPCs: delete first, then create).
 */
export async function planUpdate(
  current: Program,
  input: ProgramInput,
  mask: readonly string[],
  allowCidrs?: AllowCidrs,
): Promise<UpdatePlan> {
  const paths = checkMask(mask);
  const merged: SettingsInput = settingsOf(current);
  for (const path of paths) SETTERS[path](merged, input);

  const problems = new Problems();
  if (merged.segment !== current.segment)
    problems.add('segment', `cannot be changed after the program is created (it is ${current.segment})`);
  const newWebhook =
    paths.has('webhook') && input.webhook
      ? checkWebhook(problems, 'webhook.', input.webhook, allowCidrs)
      : null;
  const settings = await validateProgramSettings(merged, problems, allowCidrs);
  const sourceSecret: SourceSecretChange = paths.has('instant_match')
    ? sourceSecretChange(problems, settings.instantMatch, input, current)
    : { kind: 'keep' };
  problems.throwIfAny();

  if (newWebhook && current.webhook)
    throw conflict('Program already has a webhook; delete it first', { errorIds: ['webhookAlreadyExists'] });
  if (paths.has('verification_limit') && input.verificationLimit && current.verificationLimit)
    throw conflict('Program already has a verification limit', {
      errorIds: ['verificationLimitAlreadyExists'],
    });

  let webhook: WebhookChange = { kind: 'keep' };
  if (newWebhook) webhook = { kind: 'set', webhook: newWebhook };
  else if (paths.has('webhook') && current.webhook) webhook = { kind: 'clear' };
  return { settings, webhook, sourceSecret };
}

/** The settings part of a stored program (a copy: the update writes into it). */
export function settingsOf(program: Program): ProgramSettings {
  return {
    name: program.name,
    segment: program.segment,
    subSegments: [...program.subSegments],
    mode: program.mode,
    startDate: program.startDate,
    endDate: program.endDate,
    offerType: program.offerType,
    rewardCode: program.rewardCode,
    redirectUrl: program.redirectUrl,
    consolationRewardCode: program.consolationRewardCode,
    minAge: program.minAge,
    maxAge: program.maxAge,
    countries: [...program.countries],
    documentReview: { ...program.documentReview },
    organizationRules: { ...program.organizationRules },
    theme: { ...program.theme },
    verificationLimit: program.verificationLimit ? { ...program.verificationLimit } : null,
    subjectTokenKey: program.subjectTokenKey,
    requireAccountTokenToCreate: program.requireAccountTokenToCreate,
    embedOrigins: [...program.embedOrigins],
    instantMatch: {
      sources: program.instantMatch.sources.map((s) => ({ ...s, subSegments: [...s.subSegments] })),
      httpUrl: program.instantMatch.httpUrl,
      emailLoop: program.instantMatch.emailLoop === true,
    },
  };
}

function checkMask(mask: readonly string[]): Set<UpdatePath> {
  const problems = new Problems();
  if (mask.length === 0) problems.add('updateMask', 'name at least one field to update');
  const paths = new Set<UpdatePath>();
  for (const path of mask) {
    if (IMMUTABLE_PATHS.includes(path)) problems.add('updateMask', `${path} cannot be updated`);
    else if (!(UPDATABLE_PATHS as string[]).includes(path))
      problems.add('updateMask', `${JSON.stringify(path)} is not a field of Program that can be updated`);
    else paths.add(path as UpdatePath);
  }
  problems.throwIfAny();
  return paths;
}
