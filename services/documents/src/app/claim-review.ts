import { failedPrecondition, notFound } from '@eligo/runtime';
import { assertNotClaimedByAnother, isUuid, leaseEnd, liveClaim, parseHolder } from '../domain';
import { findReview, recordClaim, type ReviewRecord } from '../repository/reviews.repository';
import type { Db } from '../repository/db';
import type { AppContext } from './context';
import { withFiles, type ReviewWithFiles } from './reviews';
import { reviewView, type ReviewView } from './views';
import { documentsOfUploads } from '../repository/documents.repository';

/**
 * Claims keep two reviewers from deciding the same review: a claim holds for ctx.reviewClaimMs and is renewed
 * by claiming again. Each change runs under the review's row lock, so two claims at the same moment see one
 * another, and a decision (decide-review.ts) sees the claim it must respect.
 */

/** The holder takes (or renews) its claim on a pending review; answered with the review's files. */
export async function claimReview(
  ctx: AppContext,
  input: { reviewId: string; holder: string },
): Promise<ReviewWithFiles> {
  const holder = parseHolder(input.holder);
  return ctx.db.transaction(async (trx) => {
    const review = await lockedReview(trx, input.reviewId);
    if (review.status !== 'pending')
      throw failedPrecondition(`The review was already decided (${review.status})`, {
        reason: 'alreadyDecided',
      });
    const now = ctx.now();
    assertNotClaimedByAnother(review, holder, now);
    const claimed = await recordClaim(trx, review.id, {
      claimedBy: holder,
      claimExpiresAt: leaseEnd(now, ctx.reviewClaimMs),
    });
    return withFiles(ctx, trx, claimed);
  });
}

/**
 * The holder gives its claim up. A review nobody holds (never claimed, lapsed, decided) is answered as it is:
 * releasing is idempotent. Another holder's live claim is refused (reviewClaimed).
 */
export async function releaseReview(
  ctx: AppContext,
  input: { reviewId: string; holder: string },
): Promise<ReviewView> {
  const holder = parseHolder(input.holder);
  return ctx.db.transaction(async (trx) => {
    const review = await lockedReview(trx, input.reviewId);
    const now = ctx.now();
    assertNotClaimedByAnother(review, holder, now);
    const released = liveClaim(review, now)
      ? await recordClaim(trx, review.id, { claimedBy: null, claimExpiresAt: null })
      : review;
    return reviewView(ctx, released, await documentsOfUploads(trx, [released.uploadId]));
  });
}

async function lockedReview(trx: Db, reviewId: string): Promise<ReviewRecord> {
  const review = isUuid(reviewId) ? await findReview(trx, reviewId, true) : undefined;
  if (!review) throw notFound('Review not found');
  return review;
}
