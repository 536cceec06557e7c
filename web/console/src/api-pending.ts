import { send, type AdminVerification, type ReviewDetail, type Review, type WebhookDelivery } from './api';

/**
 * Admin API calls of issue 21's contract that the typed client (@eligo/client) does not know yet: their
 * operations are new, or new parameters of existing ones, and appear in its types once
 * packages/client/openapi/*.json is regenerated. Typed here by hand from the contract, in one place, so that
 * they can be folded into api.ts (typed client calls) then, and this file deleted.
 */

export interface Page {
  nextCursor: string | null;
}

// Review queue: filters, order, claims.
export type PendingReview = Review & {
  segment?: string;
  claimedBy?: string | null;
  claimExpiresAt?: string | null;
};
export type ClaimedReview = ReviewDetail & {
  segment?: string;
  claimedBy?: string | null;
  claimExpiresAt?: string | null;
};
export interface ReviewQueueFilters {
  programId?: string;
  segment?: string;
}

export const listPendingReviews = (filters: ReviewQueueFilters, cursor?: string) =>
  send<Page & { reviews: PendingReview[] }>('GET', '/reviews', {
    query: { status: 'pending', order: 'oldest', limit: 50, ...filters, cursor },
  });

export const claimReview = (reviewId: string) =>
  send<ClaimedReview>('POST', `/reviews/${encodeURIComponent(reviewId)}/claim`);

export const releaseReview = (reviewId: string) =>
  send<void>('DELETE', `/reviews/${encodeURIComponent(reviewId)}/claim`);

// Verifications: search, expire; their webhook deliveries, resend.
export interface VerificationSummary {
  verificationId: string;
  programId: string;
  accountId: string;
  segment: string;
  currentStep: string;
  testMode: boolean;
  created: number;
  updated: number;
  trackingId: string | null;
}
export interface VerificationSearch {
  trackingId?: string;
  email?: string;
  programId?: string;
}

export const searchVerifications = (search: VerificationSearch, cursor?: string) =>
  send<Page & { verifications: VerificationSummary[] }>('GET', '/verifications', {
    query: { ...search, limit: 50, cursor },
  });

export const expireVerification = (verificationId: string) =>
  send<AdminVerification>('POST', `/verifications/${encodeURIComponent(verificationId)}/expire`);

export const listDeliveries = (programId: string, verificationId?: string, cursor?: string) =>
  send<Page & { deliveries: WebhookDelivery[]; webhook: { status: string } }>(
    'GET',
    `/programs/${encodeURIComponent(programId)}/webhook/deliveries`,
    { query: { verificationId, limit: 20, cursor } },
  );

export const resendDelivery = (programId: string, deliveryId: string) =>
  send<WebhookDelivery>(
    'POST',
    `/programs/${encodeURIComponent(programId)}/webhook/deliveries/${encodeURIComponent(deliveryId)}/resend`,
  );

// Accounts and programs.
export interface AccountOverview {
  accountId: string;
  name: string;
  created: number;
  tokenCount: number;
  programCount: number;
}
export interface ProgramSummary {
  programId: string;
  accountId: string;
  name: string;
  segment: string;
  mode: 'test' | 'live';
  offerType: string;
  created: number;
  updated: number;
}
export interface ProgramFilters {
  accountId?: string;
  segment?: string;
  mode?: string;
  name?: string;
}
export interface RewardCodePoolLevel {
  pooled: boolean;
  total: number;
  unused: number;
  claimed: number;
  low: boolean;
  lowThreshold: number;
}

export const listAccounts = (name: string, cursor?: string) =>
  send<Page & { accounts: AccountOverview[] }>('GET', '/accounts', { query: { name, limit: 50, cursor } });

export const listPrograms = (filters: ProgramFilters, cursor?: string) =>
  send<Page & { programs: ProgramSummary[] }>('GET', '/programs', {
    query: { ...filters, limit: 50, cursor },
  });

export const getRewardCodePoolLevel = (programId: string) =>
  send<RewardCodePoolLevel>('GET', `/programs/${encodeURIComponent(programId)}/rewardCodes/level`);

export const rotateWebhookSecret = (programId: string) =>
  send<{ programId: string; webhookSecret: string }>(
    'POST',
    `/programs/${encodeURIComponent(programId)}/webhook/secret`,
  );

/** The release as the page goes away (closed tab, reload): a keepalive request outlives the page. */
export function releaseReviewAsPageLeaves(reviewId: string, headers: Record<string, string>): void {
  void fetch(`/rest/admin/v1/reviews/${encodeURIComponent(reviewId)}/claim`, {
    method: 'DELETE',
    headers,
    keepalive: true,
  }).catch(() => undefined);
}
