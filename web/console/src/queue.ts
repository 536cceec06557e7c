import { listPendingReviews, type ReviewQueueFilters } from './api-calls';

/**
 * The review queue as the reviewer last saw it (its filters and order), so that j and k on a review go to
 * its neighbours, and a decision moves on to the next one, without going back to the list.
 */
let remembered: { filters: ReviewQueueFilters; ids: string[] } | undefined;

export function rememberQueue(filters: ReviewQueueFilters, ids: string[]): void {
  remembered = { filters, ids: [...ids] };
}

export function queueFilters(): ReviewQueueFilters {
  return remembered?.filters ?? {};
}

/** The queue's first page, loaded when a review was opened directly (a link, a reload). */
export async function ensureQueue(): Promise<void> {
  if (remembered) return;
  const page = await listPendingReviews({});
  if (page.ok && !remembered)
    rememberQueue(
      {},
      page.data.reviews.map((r) => r.reviewId),
    );
}

/** The review after (1) or before (-1) this one in the queue. */
export function neighbour(reviewId: string, step: 1 | -1): string | undefined {
  const ids = remembered?.ids ?? [];
  const at = ids.indexOf(reviewId);
  if (at === -1) return step === 1 ? ids[0] : undefined;
  return ids[at + step];
}

/** A decided review leaves the queue. */
export function forget(reviewId: string): void {
  if (remembered) remembered.ids = remembered.ids.filter((id) => id !== reviewId);
}
