import { failedPrecondition, notFound } from '@eligo/runtime';
import { assertNotClaimedByAnother, isUuid, parseDecider, parseDecision } from '../domain';
import { reviewCompleted } from '../events/publish';
import { findReview, recordDecision } from '../repository/reviews.repository';
import type { AppContext } from './context';
import { withDocuments } from './reviews';
import type { ReviewView } from './views';

export interface DecideReviewInput {
  reviewId: string;
  decision: string;
  rejectionReasons: string[];
  /** DecideReviewRequest.decided_by: `operator`, `staff:<staffId>`, or empty (recorded as `staff`). */
  decidedBy: string;
}

/**
 * A reviewer's decision on a pending review, announced by ReviewCompleted in the same transaction (the
 * verification service moves the verification on from it), recorded with who decided (`operator` or
 * `staff:<staffId>`, as the gateway names the caller). A review is decided once: the row lock makes two
 * reviewers deciding at the same moment see one another. While another holder's claim is live the decision is
 * refused (reviewClaimed); a decider without a claim may decide a review nobody holds. The decision ends the
 * claim.
 */
export async function decideReview(ctx: AppContext, input: DecideReviewInput): Promise<ReviewView> {
  const decision = parseDecision(input.decision, input.rejectionReasons);
  const decidedBy = parseDecider(input.decidedBy);
  if (!isUuid(input.reviewId)) throw notFound('Review not found');
  return ctx.db.transaction(async (trx) => {
    const review = await findReview(trx, input.reviewId, true);
    if (!review) throw notFound('Review not found');
    if (review.status !== 'pending')
      throw failedPrecondition(`The review was already decided (${review.status})`, {
        reason: 'alreadyDecided',
      });
    const now = ctx.now();
    assertNotClaimedByAnother(review, decidedBy, now);
    const updated = await recordDecision(trx, review.id, {
      status: decision.approved ? 'approved' : 'rejected',
      rejectionReasons: decision.rejectionReasons,
      decidedBy,
      decidedAt: now,
    });
    await reviewCompleted(trx, ctx.schema, {
      verificationId: review.verificationId,
      reviewId: review.id,
      approved: decision.approved,
      rejectionReasons: decision.rejectionReasons,
      occurredAt: now,
      programId: review.programId,
      decidedBy,
    });
    const [view] = await withDocuments(ctx, trx, [updated]);
    return view!;
  });
}
