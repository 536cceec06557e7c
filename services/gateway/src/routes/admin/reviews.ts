import { Router } from 'express';
import type { DocumentsClient } from '../../clients/documents.client';
import { present } from '../../mapping/program';
import { reviewDetailToJson, reviewPageToJson, reviewStatuses, reviewToJson } from '../../mapping/review';
import { reviewNotFound, uuidParam } from '../../validation/path-ids';
import { optionalEnum, optionalInt, strictQuery } from '../../validation/query-params';
import { optionalPlainText } from '../plain-query';
import type { RequestValidator } from '../../validation/request-validator';
import { adminInvalidRequest } from './invalid-request';

export interface AdminReviewRouteOptions {
  documents: DocumentsClient;
  validator: RequestValidator;
}

interface DecisionBody {
  decision: 'approve' | 'reject';
  rejectionReasons?: string[];
}

/** The staff review queue of uploaded documents (operator token checked by the admin router). */
export function adminReviewRouter({ documents, validator }: AdminReviewRouteOptions): Router {
  const router = Router();
  const reviewId = uuidParam('reviewId', reviewNotFound);

  router.get('/reviews', async (req, res) => {
    strictQuery(req.query, ['status', 'limit', 'cursor']);
    const reply = await documents.listReviews({
      status: optionalEnum(req.query, 'status', reviewStatuses) ?? '',
      limit: optionalInt(req.query, 'limit', 1, 100) ?? 0,
      cursor: optionalPlainText(req.query, 'cursor', 1000) ?? '',
    });
    res.json(reviewPageToJson(reply));
  });

  // The file links expire within minutes: no cache may keep them.
  router.get('/reviews/:reviewId', reviewId, async (req, res) => {
    const reply = await documents.getReview({ reviewId: req.params.reviewId as string });
    res.set('Cache-Control', 'no-store').json(reviewDetailToJson(reply));
  });

  router.post(
    '/reviews/:reviewId/decision',
    reviewId,
    validator.body('ReviewDecisionInput'),
    async (req, res) => {
      const { decision, rejectionReasons } = req.body as DecisionBody;
      const reply = await documents.decideReview({
        reviewId: req.params.reviewId as string,
        decision,
        rejectionReasons: rejectionReasons ?? [],
      });
      res.json(reviewToJson(present(reply.review, 'review')));
    },
  );

  router.use(adminInvalidRequest);
  return router;
}
