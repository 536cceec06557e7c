import { decodeGrpcError, notFound, type DomainError } from '@eligo/runtime';
import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Principal } from '../../auth/principal';
import type { DocumentsClient } from '../../clients/documents.client';
import {
  claimReview,
  decideReview,
  getReview,
  getReviewFile,
  listReviews,
  releaseReview,
  type DecisionBody,
  type ReviewListQuery,
} from '../../endpoints/admin-reviews';
import { routeTable } from '../../endpoints/route-table';
import { RestError } from '../../errors';
import { present } from '../../mapping/program';
import { reviewDetailToJson, reviewPageToJson, reviewToJson } from '../../mapping/review';
import { reviewNotFound, uuidParam } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';
import { sendReviewFile } from './review-file';

export interface AdminReviewRouteOptions {
  documents: DocumentsClient;
  /** The files' links (ReviewDetail.files[].url) are the admin API's own route under it. */
  publicBaseUrl: string;
  logger: Logger;
}

const documentNotFound = (): DomainError => notFound('No such file in this review');

/**
 * The staff review queue of uploaded documents (operator token or staff session, checked by the admin
 * router), as endpoints/admin-reviews.ts defines it: the queue, a review, its claim, its files, the decision.
 * Whoever calls is named to the documents service as `staff:<staffId>` or `operator`: the decider, the claim's
 * holder and the reader of a file alike.
 */
export function adminReviewRouter({ documents, publicBaseUrl, logger }: AdminReviewRouteOptions): Router {
  async function listQueue(_req: Request, res: Response) {
    const query = res.locals.query as ReviewListQuery;
    const reply = await documents.listReviews({
      status: query.status ?? '',
      limit: query.limit ?? 0,
      cursor: query.cursor ?? '',
      programId: query.programId ?? '',
      segment: query.segment ?? '',
      // Empty: the service's default, oldest first.
      order: query.order ?? '',
    });
    res.json(reviewPageToJson(reply));
  }

  // The answer names who holds the review and its files: no cache may keep it.
  async function getWithFiles(req: Request, res: Response) {
    const reply = await documents.getReview({ reviewId: req.params.reviewId as string });
    res.set('Cache-Control', 'no-store').json(reviewDetailToJson(reply, publicBaseUrl));
  }

  async function decide(req: Request, res: Response) {
    const { decision, rejectionReasons } = req.body as DecisionBody;
    const reply = await documents
      .decideReview({
        reviewId: req.params.reviewId as string,
        decision,
        rejectionReasons: rejectionReasons ?? [],
        decidedBy: callerOf(res),
      })
      .catch(claimedByAnother);
    res.json(reviewToJson(present(reply.review, 'review')));
  }

  async function claim(req: Request, res: Response) {
    const reply = await documents
      .claimReview({ reviewId: req.params.reviewId as string, holder: callerOf(res) })
      .catch(claimedByAnother);
    res.set('Cache-Control', 'no-store').json(reviewDetailToJson(reply, publicBaseUrl));
  }

  async function release(req: Request, res: Response) {
    await documents
      .releaseReview({ reviewId: req.params.reviewId as string, holder: callerOf(res) })
      .catch(claimedByAnother);
    res.status(204).end();
  }

  async function readFile(req: Request, res: Response) {
    // A reviewer who closes the file (or the page) cancels the stream at once.
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const parts = documents.readReviewFile(
      {
        reviewId: req.params.reviewId as string,
        documentId: req.params.documentId as string,
        reader: callerOf(res),
      },
      abort.signal,
    );
    await sendReviewFile(res, parts, logger);
  }

  const reviewId = [uuidParam('reviewId', reviewNotFound)];
  const router = routeTable(Router(), [
    { endpoint: listReviews, handler: listQueue },
    { endpoint: getReview, before: reviewId, handler: getWithFiles },
    { endpoint: decideReview, before: reviewId, handler: decide },
    { endpoint: claimReview, before: reviewId, handler: claim },
    { endpoint: releaseReview, before: reviewId, handler: release },
    {
      endpoint: getReviewFile,
      before: [...reviewId, uuidParam('documentId', documentNotFound)],
      handler: readFile,
    },
  ]);
  router.use(adminInvalidRequest);
  return router;
}

/**
 * Who the documents service records as deciding, holding a claim or reading a file: `staff:<staffId>` for a
 * staff session, else `operator`.
 */
function callerOf(res: Response): string {
  const principal = res.locals.principal as Principal | undefined;
  return principal?.kind === 'staff' ? `staff:${principal.staffId}` : 'operator';
}

/**
 * Another holder's live claim (FAILED_PRECONDITION, reason reviewClaimed) is the console's 409 ER
 * [reviewClaimed]: an errorId of the admin API, as insufficientRole is, not of the verification forms'
 * catalogue. Every other failure goes on to the one error table (errors.ts).
 */
function claimedByAnother(err: unknown): never {
  const { reason, message } = decodeGrpcError(err);
  if (reason === 'reviewClaimed') throw new RestError(409, message, 'ER', ['reviewClaimed']);
  throw err;
}
