import { security, unauthorized, withBody } from './admin.paths';
import { errorResponse, jsonBody, jsonResponse } from './refs';
import { plainText } from './schemas/text';

const reviewId = {
  name: 'reviewId',
  in: 'path',
  required: true,
  description: 'A review (a UUID; any other value is answered 404)',
  schema: { type: 'string', format: 'uuid' },
};
const noReview = errorResponse('No such review', 'SystemErrorMessage');

/** The staff review queue of uploaded documents under /rest/admin/v1 (operator token). */
export function adminReviewPaths(publicBaseUrl: string) {
  const servers = [{ url: `${publicBaseUrl}/rest/admin/v1`, description: 'Admin API (operator token)' }];
  return {
    '/reviews': {
      servers,
      get: {
        tags: ['admin'],
        operationId: 'adminListReviews',
        summary: 'Document reviews, one page at a time',
        security,
        parameters: [
          {
            name: 'status',
            in: 'query',
            description: 'Only reviews in this state (default: all)',
            schema: { type: 'string', enum: ['pending', 'approved', 'rejected'] },
          },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          {
            name: 'cursor',
            in: 'query',
            description: 'nextCursor of the previous page, as it came (opaque); left out for the first page',
            schema: plainText(1000, 1),
          },
        ],
        responses: {
          '200': jsonResponse('One page of reviews', 'ReviewPage'),
          '400': errorResponse(
            'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
              'a value that does not match its schema, or a cursor that is not one the documents service gave ' +
              '(a cursor is opaque: only a nextCursor reads back) (errorIds [invalidRequest])',
            'ErrorResponse',
          ),
          ...unauthorized,
        },
      },
    },
    '/reviews/{reviewId}': {
      servers,
      parameters: [reviewId],
      get: {
        tags: ['admin'],
        operationId: 'adminGetReview',
        summary: 'A review with a link to each of its files',
        description:
          'The links are valid for a few minutes (expiresAt); fetch the review again for new ones. No links once ' +
          'retention deleted the files (filesDeletedAt).',
        security,
        responses: {
          '200': jsonResponse('The review', 'ReviewDetail'),
          ...unauthorized,
          '404': noReview,
        },
      },
    },
    '/reviews/{reviewId}/decision': {
      servers,
      parameters: [reviewId],
      post: {
        tags: ['admin'],
        operationId: 'adminDecideReview',
        summary: 'Approves or rejects a pending review',
        description:
          'Approval moves the verification to success, rejection back to docUpload with the reasons (its ' +
          'rejectionReasons).',
        security,
        requestBody: jsonBody('ReviewDecisionInput'),
        responses: {
          '200': jsonResponse('The decided review', 'Review'),
          ...withBody,
          ...unauthorized,
          '404': noReview,
          '409': errorResponse('The review was decided already', 'SystemErrorMessage'),
        },
      },
    },
  };
}
