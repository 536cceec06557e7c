import type { AdminPaths } from '@eligo/client';
import { admin, settle, type AdminBody } from './api';

/**
 * The typed calls of the admin API operations the console was built with (issue 21): the review queue and its
 * claims, the verification search, expiry and webhook re-send, the lists of accounts and programs, the pool
 * level and the webhook secret rotation. Their types come from the typed client's document, like api.ts's.
 */

export type ReviewPage = AdminBody<'/reviews', 'get'>;
export type PendingReview = ReviewPage['reviews'][number];
export type ClaimedReview = AdminBody<'/reviews/{reviewId}/claim', 'post'>;
export type VerificationSearchPage = AdminBody<'/verifications/search', 'post'>;
export type VerificationSummary = VerificationSearchPage['verifications'][number];
export type ProgramSummaryPage = AdminBody<'/programs', 'get'>;
export type ProgramSummary = ProgramSummaryPage['programs'][number];
export type AccountPage = AdminBody<'/accounts', 'get'>;
export type AccountOverview = AccountPage['accounts'][number];
export type RewardCodePoolLevel = AdminBody<'/programs/{programId}/rewardCodes/level', 'get'>;

type QueryOf<P extends keyof AdminPaths> = AdminPaths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;

/** Filters as the page's fields hold them (strings); the server checks the values (a 400 names a bad one). */
export interface ReviewQueueFilters {
  programId?: string;
  segment?: string;
}
export interface VerificationSearch {
  trackingId?: string;
  email?: string;
  programId?: string;
}
export interface ProgramFilters {
  accountId?: string;
  segment?: string;
  mode?: string;
  name?: string;
}

/** Only the filters that are set: the admin API refuses an empty value. */
function setOnly<T extends object>(filters: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''),
  ) as Partial<T>;
}
const page = (cursor?: string) => (cursor ? { cursor } : {});

// The review queue: pending reviews, oldest first; a review is claimed while a member has it open.
export const listPendingReviews = (filters: ReviewQueueFilters, cursor?: string) =>
  settle(
    admin.GET('/reviews', {
      params: {
        query: {
          status: 'pending',
          order: 'oldest',
          limit: 50,
          ...(setOnly(filters) as QueryOf<'/reviews'>),
          ...page(cursor),
        },
      },
    }),
  );

export const claimReview = (reviewId: string) =>
  settle(admin.POST('/reviews/{reviewId}/claim', { params: { path: { reviewId } } }));

export const releaseReview = (reviewId: string) =>
  settle(admin.DELETE('/reviews/{reviewId}/claim', { params: { path: { reviewId } } }));

/** The release as the page goes away (closed tab, reload): a keepalive request outlives the page. */
export function releaseReviewAsPageLeaves(reviewId: string, headers: Record<string, string>): void {
  void fetch(`/rest/admin/v1/reviews/${encodeURIComponent(reviewId)}/claim`, {
    method: 'DELETE',
    headers,
    keepalive: true,
  }).catch(() => undefined);
}

/**
 * The search is a POST with the filters in the body: an email in the URL would stay in proxies' logs and the
 * browser's history.
 */
export const searchVerifications = (search: VerificationSearch, cursor?: string) =>
  settle(admin.POST('/verifications/search', { body: { ...setOnly(search), limit: 50, ...page(cursor) } }));

export const expireVerification = (verificationId: string) =>
  settle(admin.POST('/verifications/{verificationId}/expire', { params: { path: { verificationId } } }));

export const listDeliveries = (programId: string, verificationId?: string, cursor?: string) =>
  settle(
    admin.GET('/programs/{programId}/webhook/deliveries', {
      params: { path: { programId }, query: { ...setOnly({ verificationId }), limit: 20, ...page(cursor) } },
    }),
  );

export const resendDelivery = (programId: string, deliveryId: string) =>
  settle(
    admin.POST('/programs/{programId}/webhook/deliveries/{deliveryId}/resend', {
      params: { path: { programId, deliveryId } },
    }),
  );

// Accounts and programs.
export const listAccounts = (name: string, cursor?: string) =>
  settle(admin.GET('/accounts', { params: { query: { ...setOnly({ name }), limit: 50, ...page(cursor) } } }));

export const listPrograms = (filters: ProgramFilters, cursor?: string) =>
  settle(
    admin.GET('/programs', {
      params: { query: { ...(setOnly(filters) as QueryOf<'/programs'>), limit: 50, ...page(cursor) } },
    }),
  );

export const getRewardCodePoolLevel = (programId: string) =>
  settle(admin.GET('/programs/{programId}/rewardCodes/level', { params: { path: { programId } } }));

export const rotateWebhookSecret = (programId: string) =>
  settle(admin.POST('/programs/{programId}/webhook/secret', { params: { path: { programId } } }));

// One account and its access tokens (admin): listed without credentials, issued (the secrets shown once), revoked.
export type AccessTokenPage = AdminBody<'/accounts/{accountId}/tokens', 'get'>;
export type AccessToken = AccessTokenPage['tokens'][number];
export type AccessTokenCreated = AdminBody<'/accounts/{accountId}/tokens', 'post'>;
export type TokenRole = AccessToken['roles'][number];

export const getAccount = (accountId: string) =>
  settle(admin.GET('/accounts/{accountId}', { params: { path: { accountId } } }));

export const listAccessTokens = (accountId: string, cursor?: string) =>
  settle(
    admin.GET('/accounts/{accountId}/tokens', {
      params: { path: { accountId }, query: { limit: 50, ...page(cursor) } },
    }),
  );

export const issueAccessToken = (accountId: string, name: string, roles: TokenRole[]) =>
  settle(
    admin.POST('/accounts/{accountId}/tokens', { params: { path: { accountId } }, body: { name, roles } }),
  );

export const revokeAccessToken = (accountId: string, tokenId: string) =>
  settle(
    admin.DELETE('/accounts/{accountId}/tokens/{tokenId}', { params: { path: { accountId, tokenId } } }),
  );
