import type { Segment } from './segments';
import { emptyTheme, type Theme } from './theme';

/**
 * The program configuration as the domain sees it. Optional settings are null when unset; lists are empty
 * when they do not restrict. The webhook's signing secret is not part of it: it never leaves the programs
 * service except once, in the reply that created it, and to the notifier over GetWebhookDelivery.
 */
export type ProgramMode = 'TEST' | 'LIVE';
export type OfferType = 'STATIC_CODE' | 'REWARD_POOL' | 'NO_CODE';

export const MAX_REVIEW_TIMES = ['2_MIN', '20_MIN', '2_HRS', '24_HRS', '2_DAY', '3_DAY'] as const;
export const ESTIMATED_REVIEW_TIMES = ['A_FEW_MINUTES', 'A_HALF_HOUR', 'A_FEW_HOURS', 'A_FEW_DAYS'] as const;

export interface DocumentReview {
  maxRejections: number;
  /** One of MAX_REVIEW_TIMES, or '' (not stated). */
  maxReviewTime: string;
  /** One of ESTIMATED_REVIEW_TIMES, or '' (not stated). */
  estimatedReviewTime: string;
}

export const ORGANIZATION_TYPES = [
  'UNIVERSITY',
  'POST_SECONDARY',
  'HIGH_SCHOOL',
  'K12',
  'MILITARY',
  'FIRST_RESPONDER',
  'MEDICAL',
  'CORPORATE',
  'MEMBERSHIP',
  'NON_PROFIT',
  'GOVERNMENT',
  'OTHER',
] as const;

export interface OrganizationRules {
  types: string[];
  countries: string[];
  includeIds: number[];
  excludeIds: number[];
}

export interface VerificationLimit {
  quantity: number;
  days: number;
}

export interface Webhook {
  callbackUri: string;
  createdAt: Date;
}

/** Everything a program's owner sets (create and update work on this). */
export interface ProgramSettings {
  name: string;
  segment: Segment;
  subSegments: string[];
  mode: ProgramMode;
  startDate: Date | null;
  endDate: Date | null;
  offerType: OfferType;
  rewardCode: string | null;
  redirectUrl: string | null;
  consolationRewardCode: string | null;
  minAge: number | null;
  maxAge: number | null;
  countries: string[];
  documentReview: DocumentReview;
  organizationRules: OrganizationRules;
  theme: Theme;
  verificationLimit: VerificationLimit | null;
  /**
   * Public key (JWK as JSON, or PEM SPKI) verifying the compact JWS subject tokens of the program; null when
   * none (such tokens are then refused). Public, not a secret: it is shown like the other settings.
   */
  subjectTokenKey: string | null;
}

/** A stored program, as read. */
export interface Program extends ProgramSettings {
  id: string;
  accountId: string;
  webhook: Webhook | null;
  /** Unclaimed codes of a reward-pool offer; 0 for the other offer types (the pool is not in use). */
  rewardCodesRemaining: number;
  createdAt: Date;
  updatedAt: Date;
}

export const DEFAULT_MAX_REJECTIONS = 3;

export function defaultDocumentReview(): DocumentReview {
  return { maxRejections: DEFAULT_MAX_REJECTIONS, maxReviewTime: '', estimatedReviewTime: '' };
}

export function emptyOrganizationRules(): OrganizationRules {
  return { types: [], countries: [], includeIds: [], excludeIds: [] };
}

export { emptyTheme };
