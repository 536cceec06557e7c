import { codeProblem } from './codes';
import { normaliseCountries } from './countries';
import { normaliseEmbedOrigins } from './embed-origins';
import { Problems } from './invalid';
import {
  WEBHOOK_NOTIFICATIONS,
  type DocumentReview,
  type OrganizationRules,
  type ProgramSettings,
  type VerificationLimit,
  type WebhookNotification,
  type WebhookSettings,
} from './program';
import {
  AGE_BOUNDED_SEGMENTS,
  ESTIMATED_REVIEW_TIMES,
  isSegment,
  MAX_REVIEW_TIMES,
  ORGANIZATION_TYPES,
  subSegmentProblems,
} from '@eligo/vocabulary';
import { subjectTokenKeyProblem } from './subject-token-key';
import { checkName } from './text';
import { normaliseTheme } from './theme';
import { urlProblem } from './urls';
import { NO_ALLOWED_CIDRS, type AllowCidrs } from './webhook-address';
import { checkInstantMatch, type InstantMatchSettingsInput } from './instant-match';

export const MAX_PROGRAM_NAME = 200;
export const MAX_AGE = 150;
export const MAX_ORGANIZATION_IDS = 1000;
export const MAX_DOCUMENT_REJECTIONS = 10;

/** Settings as they arrive: the segment is still an unchecked string. */
export type SettingsInput = Omit<ProgramSettings, 'segment' | 'instantMatch'> & {
  segment: string;
  instantMatch: InstantMatchSettingsInput;
};

/** A webhook as it arrives: the notifications are still unchecked names. */
export interface WebhookInput {
  callbackUri: string;
  notifications: readonly string[];
}

/**
 * The one validator of a program's settings, for create and for the merged result of an update, so that no
 * path stores what the other would refuse. Reports every problem at once (INVALID_ARGUMENT invalidRequest),
 * with those already in `problems` (a webhook given with the program: checkWebhook), and returns the
 * settings normalised (trimmed name, upper-case countries, canonical locale, trimmed subject token key,
 * embed origins in their serialised form).
 * Asynchronous because the subject token key is checked by importing it (jose imports are async).
 */
export async function validateProgramSettings(
  input: SettingsInput,
  problems: Problems = new Problems(),
  allowCidrs: AllowCidrs = NO_ALLOWED_CIDRS,
): Promise<ProgramSettings> {
  const name = checkName(input.name, MAX_PROGRAM_NAME);
  if (name.problem) problems.add('name', name.problem);

  const segment = input.segment;
  if (!isSegment(segment)) {
    problems.add('segment', `${JSON.stringify(segment)} is not a segment`);
  } else {
    for (const p of subSegmentProblems(segment, input.subSegments)) problems.add('subSegments', p);
    if (!AGE_BOUNDED_SEGMENTS.includes(segment)) {
      const only = `applies only to ${AGE_BOUNDED_SEGMENTS.join(' and ')} programs`;
      if (input.minAge !== null) problems.add('minAge', only);
      if (input.maxAge !== null) problems.add('maxAge', only);
    }
  }

  checkDate(problems, 'startDate', input.startDate);
  checkDate(problems, 'endDate', input.endDate);
  if (input.startDate && input.endDate && input.startDate.getTime() >= input.endDate.getTime())
    problems.add('endDate', 'must be after startDate');

  if (input.offerType === 'STATIC_CODE' && input.rewardCode === null)
    problems.add('rewardCode', 'is required for a static-code offer');
  if (input.offerType !== 'STATIC_CODE' && input.rewardCode !== null)
    problems.add('rewardCode', 'is allowed only for a static-code offer');
  checkCode(problems, 'rewardCode', input.rewardCode);
  checkCode(problems, 'consolationRewardCode', input.consolationRewardCode);

  if (input.redirectUrl !== null) {
    const p = urlProblem(input.redirectUrl, { allowFragment: true });
    if (p) problems.add('redirectUrl', p);
  }
  checkAge(problems, 'minAge', input.minAge);
  checkAge(problems, 'maxAge', input.maxAge);
  if (input.minAge !== null && input.maxAge !== null && input.minAge > input.maxAge)
    problems.add('maxAge', 'must not be below minAge');

  const countries = normaliseCountries(input.countries, (p) => problems.add('countries', p));
  checkDocumentReview(problems, input.documentReview);
  const organizationRules = checkOrganizationRules(problems, input.organizationRules);
  const theme = normaliseTheme(input.theme, (field, p) => problems.add(field, p));
  if (input.verificationLimit) checkVerificationLimit(problems, input.verificationLimit);
  const subjectTokenKey = await checkSubjectTokenKey(problems, input.subjectTokenKey);
  const embedOrigins = normaliseEmbedOrigins(input.embedOrigins, (p) => problems.add('embedOrigins', p));
  const instantMatch = checkInstantMatch(
    problems,
    input.instantMatch,
    isSegment(segment) ? segment : undefined,
    allowCidrs,
  );

  problems.throwIfAny();
  return {
    name: name.name,
    segment: segment as ProgramSettings['segment'],
    subSegments: [...input.subSegments],
    mode: input.mode,
    startDate: input.startDate,
    endDate: input.endDate,
    offerType: input.offerType,
    rewardCode: input.rewardCode,
    redirectUrl: input.redirectUrl,
    consolationRewardCode: input.consolationRewardCode,
    minAge: input.minAge,
    maxAge: input.maxAge,
    countries,
    documentReview: { ...input.documentReview },
    organizationRules,
    theme,
    verificationLimit: input.verificationLimit ? { ...input.verificationLimit } : null,
    subjectTokenKey,
    requireAccountTokenToCreate: input.requireAccountTokenToCreate,
    embedOrigins,
    instantMatch,
  };
}

/** Trimmed (a PEM pasted with its final newline is the same key); blank is none. */
async function checkSubjectTokenKey(problems: Problems, value: string | null): Promise<string | null> {
  const key = value?.trim() ?? '';
  if (key === '') return null;
  const p = await subjectTokenKeyProblem(key);
  if (p) problems.add('subjectTokenKey', p);
  return key;
}

/** Proto timestamps span years 1..9999; outside that a date is a client bug (and Postgres may refuse it). */
function checkDate(problems: Problems, field: string, date: Date | null): void {
  if (date === null) return;
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) problems.add(field, 'is out of range');
}

function checkCode(problems: Problems, field: string, code: string | null): void {
  if (code === null) return;
  const p = codeProblem(code);
  if (p) problems.add(field, p);
}

function checkAge(problems: Problems, field: string, age: number | null): void {
  if (age !== null && (!Number.isInteger(age) || age < 0 || age > MAX_AGE))
    problems.add(field, `must be a whole number from 0 to ${MAX_AGE}`);
}

function checkDocumentReview(problems: Problems, review: DocumentReview): void {
  const r = review.maxRejections;
  if (!Number.isInteger(r) || r < 0 || r > MAX_DOCUMENT_REJECTIONS)
    problems.add('documentReview.maxRejections', `must be from 0 to ${MAX_DOCUMENT_REJECTIONS}`);
  if (review.maxReviewTime !== '' && !(MAX_REVIEW_TIMES as readonly string[]).includes(review.maxReviewTime))
    problems.add('documentReview.maxReviewTime', `must be one of ${MAX_REVIEW_TIMES.join(' ')} or empty`);
  const estimated = review.estimatedReviewTime;
  if (estimated !== '' && !(ESTIMATED_REVIEW_TIMES as readonly string[]).includes(estimated))
    problems.add(
      'documentReview.estimatedReviewTime',
      `must be one of ${ESTIMATED_REVIEW_TIMES.join(' ')} or empty`,
    );
}

function checkOrganizationRules(problems: Problems, rules: OrganizationRules): OrganizationRules {
  const seenTypes = new Set<string>();
  for (const type of rules.types) {
    if (!(ORGANIZATION_TYPES as readonly string[]).includes(type))
      problems.add('organizationRules.types', `${JSON.stringify(type)} is not an organization type`);
    else if (seenTypes.has(type)) problems.add('organizationRules.types', `${type} is listed twice`);
    seenTypes.add(type);
  }
  const countries = normaliseCountries(rules.countries, (p) =>
    problems.add('organizationRules.countries', p),
  );
  checkIds(problems, 'organizationRules.includeIds', rules.includeIds);
  checkIds(problems, 'organizationRules.excludeIds', rules.excludeIds);
  const excluded = new Set(rules.excludeIds);
  for (const id of new Set(rules.includeIds)) {
    if (excluded.has(id))
      problems.add('organizationRules', `organization ${id} is both included and excluded`);
  }
  return { ...rules, countries };
}

function checkIds(problems: Problems, field: string, ids: readonly number[]): void {
  if (ids.length > MAX_ORGANIZATION_IDS) problems.add(field, `at most ${MAX_ORGANIZATION_IDS} ids`);
  const seen = new Set<number>();
  for (const id of ids) {
    if (!Number.isSafeInteger(id) || id <= 0) problems.add(field, `${id} is not a positive integer`);
    else if (seen.has(id)) problems.add(field, `${id} is listed twice`);
    seen.add(id);
  }
}

export const MAX_LIMIT_QUANTITY = 1000;
export const MAX_LIMIT_DAYS = 3650;

function checkVerificationLimit(problems: Problems, limit: VerificationLimit): void {
  if (!Number.isInteger(limit.quantity) || limit.quantity < 1 || limit.quantity > MAX_LIMIT_QUANTITY)
    problems.add('verificationLimit.quantity', `must be from 1 to ${MAX_LIMIT_QUANTITY}`);
  if (!Number.isInteger(limit.days) || limit.days < 1 || limit.days > MAX_LIMIT_DAYS)
    problems.add('verificationLimit.days', `must be from 1 to ${MAX_LIMIT_DAYS}`);
}

/** For CreateVerificationLimit: the same rules, on their own. */
export function validateVerificationLimit(limit: VerificationLimit | undefined): VerificationLimit {
  const problems = new Problems();
  if (!limit) problems.add('limit', 'is required');
  else checkVerificationLimit(problems, limit);
  problems.throwIfAny();
  return limit!;
}

/**
 * The one validator of a webhook, wherever one is set (CreateWebhook, and CreateProgram or UpdateProgram
 * with a webhook): an absolute http(s) callback without credentials or fragment whose host, when an IP
 * address, is public or in `allowCidrs` (ELIGO_WEBHOOK_ALLOW_CIDRS; none by default, the strictest), and
 * notifications among WEBHOOK_NOTIFICATIONS (UNSPECIFIED or a value the contract does not know is refused),
 * duplicates folded and sorted by name. Records problems under `prefix` + field; returns the normalised
 * webhook.
 */
export function checkWebhook(
  problems: Problems,
  prefix: string,
  input: WebhookInput,
  allowCidrs: AllowCidrs = NO_ALLOWED_CIDRS,
): WebhookSettings {
  const p = urlProblem(input.callbackUri, { allowFragment: false, allowCidrs });
  if (p) problems.add(`${prefix}callbackUri`, p);
  const notifications = new Set<WebhookNotification>();
  for (const name of input.notifications) {
    if (isWebhookNotification(name)) notifications.add(name);
    else problems.add(`${prefix}notifications`, `${JSON.stringify(name)} is not a webhook notification`);
  }
  return { callbackUri: input.callbackUri, notifications: [...notifications].sort() };
}

function isWebhookNotification(name: string): name is WebhookNotification {
  return (WEBHOOK_NOTIFICATIONS as readonly string[]).includes(name);
}

/** For CreateWebhook: the webhook alone, its fields named as in that request. */
export function validateWebhook(input: WebhookInput, allowCidrs?: AllowCidrs): WebhookSettings {
  const problems = new Problems();
  const webhook = checkWebhook(problems, '', input, allowCidrs);
  problems.throwIfAny();
  return webhook;
}
