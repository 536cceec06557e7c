import { z } from 'zod';
import { segmentNames } from '@eligo/vocabulary';
import { described } from '../openapi/schemas/text';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import { er, sem, withBody } from './common';
import { defineEndpoint, type BodyOf, type QueryOf } from './define';
import { hexId, integer, oneOf } from './query';
import { Review, ReviewDetail, ReviewPage, reviewStatuses } from './admin-review-schemas';
import { patterned } from './schemas';

/**
 * The staff review queue of uploaded documents under /rest/admin/v1 (operator token or staff session),
 * described once: the queue, a review, its claim, its files and the decision. The routes are
 * routes/admin/reviews.ts, the answers' schemas endpoints/admin-review-schemas.ts.
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

/**
 * A review's file is shown inside the console: sandboxed (no script, no form, no plugin of its own origin), and
 * an image or a PDF of the API's own origin still renders in an <img>, <iframe> or <object>.
 */
export const REVIEW_FILE_CSP = "sandbox; default-src 'none'; img-src 'self'; object-src 'self'";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const reviewParams = z.object({
  reviewId: z
    .string()
    .meta({ format: 'uuid', description: 'A review (a UUID; any other value is answered 404)' }),
});
const noReview = sem('No such review');
/** Another holder's live claim: the console tells the reviewer someone else has the review. */
const claimedByAnother =
  'another reviewer holds a live claim on the review (errorIds [reviewClaimed]; the review shows claimedBy ' +
  'and claimExpiresAt)';

export const listReviews = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/reviews',
  operationId: 'adminListReviews',
  summary: 'Document reviews, one page at a time',
  description:
    'In submission order (order=oldest, the default) or the latest first (order=newest). Each filter narrows ' +
    'the list; send the same filters and order with every page of one listing (a cursor of the other order ' +
    'is refused). The console reads the queue as status=pending&order=oldest.',
  strictQuery: true,
  query: z.object({
    status: oneOf(reviewStatuses, { description: 'Only reviews in this state (default: all)' }).optional(),
    programId: hexId({ description: "Only this program's reviews" }).optional(),
    segment: oneOf(segmentNames as [string, ...string[]], {
      description: "Only reviews of this segment (the verification's)",
    }).optional(),
    order: oneOf(['oldest', 'newest'], {
      description: 'oldest: in submission order (the default); newest: the latest submission first',
    }).optional(),
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
    'Each link is GET /reviews/{reviewId}/files/{documentId} of this API: it does not expire, and needs the ' +
    'same credentials. No links once retention deleted the files (filesDeletedAt).',
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
    'rejectionReasons). Refused while another reviewer holds a live claim on the review; a review nobody ' +
    'holds may be decided without claiming it. The decision ends any claim.',
  params: reviewParams,
  body: ReviewDecisionInput,
  responses: {
    '200': { description: 'The decided review', body: Review },
    ...withBody,
    ...unauthorized,
    '404': noReview,
    '409': {
      description: `The review was decided already (SEM), or ${claimedByAnother}`,
      body: { json: { anyOf: [ref('SystemErrorMessage'), ref('ErrorResponse')] } },
    },
  },
});

export const claimReview = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/reviews/{reviewId}/claim',
  operationId: 'adminClaimReview',
  summary: 'Claims a pending review for a while, so that no other reviewer decides it',
  description:
    'The claim runs out after ELIGO_DOCUMENTS_REVIEW_CLAIM_SECONDS (claimExpiresAt; 5 minutes by default); ' +
    'claiming again renews it. While it holds, other reviewers can neither claim nor decide the review. No ' +
    'body. Answers the review with its file links, as GET /reviews/{reviewId}.',
  params: reviewParams,
  responses: {
    '200': { description: 'The review, claimed by the caller', body: ReviewDetail },
    ...unauthorized,
    '404': noReview,
    '409': {
      description: `The review was decided already (SEM), or ${claimedByAnother}`,
      body: { json: { anyOf: [ref('SystemErrorMessage'), ref('ErrorResponse')] } },
    },
  },
});

export const releaseReview = defineEndpoint({
  ...adminOperation,
  method: 'delete',
  path: '/reviews/{reviewId}/claim',
  operationId: 'adminReleaseReview',
  summary: "Gives the caller's claim on a review up",
  description:
    'Idempotent: a review nobody holds (never claimed, released, decided, or the claim ran out) is answered ' +
    'the same.',
  params: reviewParams,
  responses: {
    '204': { description: 'Nobody holds the review now' },
    ...unauthorized,
    '404': noReview,
    '409': er(`The claim is not the caller's: ${claimedByAnother}`),
  },
});

const documentParams = reviewParams.extend({
  documentId: z.string().meta({
    format: 'uuid',
    description: 'One of the review’s documents (a UUID; any other value is answered 404)',
  }),
});

/** The file types a document can be stored with (services/documents/src/domain/mime.ts). */
const FILE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'application/pdf'] as const;
const fileBody = { json: { type: 'string', contentMediaType: 'application/octet-stream' } } as const;

export const getReviewFile = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/reviews/{reviewId}/files/{documentId}',
  operationId: 'adminGetReviewFile',
  summary: 'One file of a review, decrypted as it is streamed',
  description:
    'The file with the type it was stored with, to show inline in the console (an image, or a PDF in an ' +
    'iframe or object): sandboxed by its Content-Security-Policy, never sniffed, never cached. Each read is ' +
    'recorded (who, which review and document, when) before the first byte leaves. A failure after the first ' +
    'byte breaks the connection off, so a partial file is never mistaken for a whole one.',
  params: documentParams,
  responses: {
    // routes/admin/review-file.ts sets these headers.
    '200': {
      description: 'The file',
      headers: {
        'Content-Disposition': { description: 'inline', schema: z.literal('inline') },
        'Content-Length': { description: 'The file’s size in bytes', schema: z.int().min(1) },
        'Content-Security-Policy': {
          description: REVIEW_FILE_CSP,
          schema: z.literal(REVIEW_FILE_CSP),
        },
        'X-Content-Type-Options': { schema: z.literal('nosniff') },
        'Cache-Control': { schema: z.literal('private, no-store') },
      },
      content: Object.fromEntries(FILE_TYPES.map((type) => [type, fileBody])),
    },
    ...unauthorized,
    '404': sem(
      'No such review, the document is not one of its stored files (unknown, refused, or deleted by ' +
        'retention: filesDeletedAt)',
    ),
  },
});

export type ReviewListQuery = QueryOf<typeof listReviews>;
export type DecisionBody = BodyOf<typeof decideReview>;

export const adminReviewEndpoints = [
  listReviews,
  getReview,
  decideReview,
  claimReview,
  releaseReview,
  getReviewFile,
] as const;
