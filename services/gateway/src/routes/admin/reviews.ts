import { Router, type Request, type Response } from 'express';
import type { Principal } from '../../auth/principal';
import type { DocumentsClient } from '../../clients/documents.client';
import {
  decideReview,
  getReview,
  listReviews,
  type DecisionBody,
  type ReviewListQuery,
} from '../../endpoints/admin-reviews';
import { routeTable } from '../../endpoints/route-table';
import { present } from '../../mapping/program';
import { reviewDetailToJson, reviewPageToJson, reviewToJson } from '../../mapping/review';
import { reviewNotFound, uuidParam } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminReviewRouteOptions {
  documents: DocumentsClient;
}

/**
 * The staff review queue of uploaded documents (operator token checked by the admin router), as
 * endpoints/admin-reviews.ts defines it.
 */
export function adminReviewRouter({ documents }: AdminReviewRouteOptions): Router {
  async function listQueue(_req: Request, res: Response) {
    const query = res.locals.query as ReviewListQuery;
    const reply = await documents.listReviews({
      status: query.status ?? '',
      limit: query.limit ?? 0,
      cursor: query.cursor ?? '',
    });
    res.json(reviewPageToJson(reply));
  }

  // The file links expire within minutes: no cache may keep them.
  async function getWithFiles(req: Request, res: Response) {
    const reply = await documents.getReview({ reviewId: req.params.reviewId as string });
    res.set('Cache-Control', 'no-store').json(reviewDetailToJson(reply));
  }

  async function decide(req: Request, res: Response) {
    const { decision, rejectionReasons } = req.body as DecisionBody;
    const reply = await documents.decideReview({
      reviewId: req.params.reviewId as string,
      decision,
      rejectionReasons: rejectionReasons ?? [],
      decidedBy: deciderOf(res),
    });
    res.json(reviewToJson(present(reply.review, 'review')));
  }

  const reviewId = [uuidParam('reviewId', reviewNotFound)];
  const router = routeTable(Router(), [
    { endpoint: listReviews, handler: listQueue },
    { endpoint: getReview, before: reviewId, handler: getWithFiles },
    { endpoint: decideReview, before: reviewId, handler: decide },
  ]);
  router.use(adminInvalidRequest);
  return router;
}

/** Who the documents service records as deciding: `staff:<staffId>` for a staff session, else `operator`. */
function deciderOf(res: Response): string {
  const principal = res.locals.principal as Principal | undefined;
  return principal?.kind === 'staff' ? `staff:${principal.staffId}` : 'operator';
}
