import { z } from 'zod';
import { described } from '../openapi/schemas/text';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import { er, sem, withBody } from './common';
import { defineEndpoint, type BodyOf, type QueryOf } from './define';
import { integer, oneOf } from './query';
import { Review, ReviewDetail, ReviewPage, reviewStatuses } from './admin-review-schemas';
import { patterned } from './schemas';

/**
 * The staff review queue of uploaded documents under /rest/admin/v1 (operator token), described once; the
 * routes are routes/admin/reviews.ts, the answers' schemas endpoints/admin-review-schemas.ts.
 */

/** Rejection reasons as the documents service takes them (services/documents/src/domain/decision.ts). */
const MAX_REJECTION_REASONS = 10;
const REJECTION_REASON = described(
  '^[A-Z][A-Z0-9_]{1,63}$',
  'must be an upper-case code of 2 to 64 letters, digits and _',
);
const rejection = `a rejection takes 1 to ${MAX_REJECTION_REASONS} reasons`;
const approval = 'an approval takes no rejection reasons';

/**
 * The document states the rule of the reasons as if/then/else, which Ajv checked before anything else of the
 * object but its type: `then` (1 to 10 reasons) holds whenever decision is not another value than reject, an
 * absent decision included, `else` (no reasons) otherwise. The refusal says which rule, as Ajv's did.
 */
function reasonsRule(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const has = (key: string) => Object.prototype.hasOwnProperty.call(value, key);
  const { decision, rejectionReasons: reasons } = value as Record<string, unknown>;
  if (!has('decision') || decision === 'reject') {
    if (!has('rejectionReasons')) return `is required (${rejection})`;
    if (!Array.isArray(reasons)) return `must be array (${rejection})`;
    if (reasons.length < 1) return `must NOT have fewer than 1 items (${rejection})`;
  } else if (has('rejectionReasons')) {
    if (!Array.isArray(reasons)) return `must be array (${approval})`;
    if (reasons.length > 0) return `must NOT have more than 0 items (${approval})`;
  }
  return undefined;
}

export const ReviewDecisionInput = z
  .preprocess(
    (value, ctx) => {
      const problem = reasonsRule(value);
      if (problem !== undefined)
        ctx.addIssue({ code: 'custom', message: problem, path: ['rejectionReasons'], input: value });
      return value;
    },
    z
      .strictObject({
        decision: z.enum(['approve', 'reject']),
        rejectionReasons: z
          .array(patterned(REJECTION_REASON))
          .max(MAX_REJECTION_REASONS)
          .meta({
            description:
              'Upper-case codes such as DOCUMENT_UNREADABLE, DOCUMENT_EXPIRED, MISMATCH_PERSON_FIRST_NAME (2 to 64 ' +
              'characters: A-Z first, then A-Z, 0-9, _); a repeated one counts once.',
          })
          .optional(),
      })
      .meta({
        description:
          'approve takes no rejection reasons (none, or an empty list); reject takes 1 to ' +
          `${MAX_REJECTION_REASONS}, which the person is shown.`,
        if: { properties: { decision: { const: 'reject' } } },
        then: {
          required: ['rejectionReasons'],
          properties: { rejectionReasons: { type: 'array', minItems: 1, description: rejection } },
          description: rejection,
        },
        else: {
          properties: { rejectionReasons: { type: 'array', maxItems: 0, description: approval } },
        },
      }),
  )
  .meta({ id: 'ReviewDecisionInput' });

const reviewParams = z.object({
  reviewId: z
    .string()
    .meta({ format: 'uuid', description: 'A review (a UUID; any other value is answered 404)' }),
});
const noReview = sem('No such review');

export const listReviews = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/reviews',
  operationId: 'adminListReviews',
  summary: 'Document reviews, one page at a time',
  strictQuery: true,
  query: z.object({
    status: oneOf(reviewStatuses, { description: 'Only reviews in this state (default: all)' }).optional(),
    limit: integer({ min: 1, max: 100, fallback: 50 }).optional(),
    cursor: pageCursor(
      'nextCursor of the previous page, as it came (opaque); left out for the first page',
    ).optional(),
  }),
  responses: {
    '200': { description: 'One page of reviews', body: ReviewPage },
    '400': er(
      'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
        'a value that does not match its schema, or a cursor that is not one the documents service gave ' +
        '(a cursor is opaque: only a nextCursor reads back) (errorIds [invalidRequest])',
    ),
    ...unauthorized,
  },
});

export const getReview = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/reviews/{reviewId}',
  operationId: 'adminGetReview',
  summary: 'A review with a link to each of its files',
  description:
    'The links are valid for a few minutes (expiresAt); fetch the review again for new ones. No links once ' +
    'retention deleted the files (filesDeletedAt).',
  params: reviewParams,
  responses: {
    '200': { description: 'The review', body: ReviewDetail },
    ...unauthorized,
    '404': noReview,
  },
});

export const decideReview = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/reviews/{reviewId}/decision',
  operationId: 'adminDecideReview',
  summary: 'Approves or rejects a pending review',
  description:
    'Approval moves the verification to success, rejection back to docUpload with the reasons (its ' +
    'rejectionReasons).',
  params: reviewParams,
  body: ReviewDecisionInput,
  responses: {
    '200': { description: 'The decided review', body: Review },
    ...withBody,
    ...unauthorized,
    '404': noReview,
    '409': sem('The review was decided already'),
  },
});

export type ReviewListQuery = QueryOf<typeof listReviews>;
export type DecisionBody = BodyOf<typeof decideReview>;

export const adminReviewEndpoints = [listReviews, getReview, decideReview] as const;
