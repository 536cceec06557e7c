import { z } from 'zod';
import { segmentNames } from '@eligo/vocabulary';
import { DocumentErrors, DocumentStatus } from './doc-upload-schemas';
import { integerValue } from './schemas-numbers';

/**
 * What the staff review queue answers (endpoints/admin-reviews.ts): a review, its page, and the review with
 * its file links. A review's documents are those of the docUpload step, with the same status and errors.
 */
/** The review queue's states (ListReviewsRequest.status; empty = all). */
export const reviewStatuses = ['pending', 'approved', 'rejected'] as const;

const instant = (description: string) =>
  z
    .string()
    .nullable()
    .meta({ format: 'date-time', description: `${description} ISO 8601.` });

export const ReviewDocument = z
  .object({
    documentId: z.string(),
    fileName: z.string().meta({ description: 'The sanitised name the client gave.' }),
    status: DocumentStatus,
    mimeType: z.string(),
    fileSize: integerValue().min(0),
    errors: DocumentErrors,
  })
  .meta({ id: 'ReviewDocument' });

/** Review.decided_by of the documents service (proto/eligo/documents/v1/documents_service.proto). */
const DECIDED_BY = '^(test-mode|operator|staff|staff:[0-9a-f]{24})$';
/** Review.claimed_by: who may hold a claim (the operator token or a staff member), as decidedBy names them. */
const CLAIMED_BY = '^(operator|staff:[0-9a-f]{24})$';

export const Review = z
  .object({
    reviewId: z.string().meta({ format: 'uuid' }),
    verificationId: z.string(),
    programId: z.string(),
    accountId: z.string(),
    status: z.enum(reviewStatuses),
    testMode: z.boolean().meta({ description: 'Test-mode reviews are decided at once from the file names.' }),
    documents: z.array(ReviewDocument),
    rejectionReasons: z.array(z.string()).meta({ examples: [['DOCUMENT_UNREADABLE']] }),
    submittedAt: instant('When the documents were submitted.'),
    decidedAt: instant('null while pending.'),
    // `type: ['string', 'null']` beside the pattern, as the enum was stated before (zod: an anyOf).
    decidedBy: z
      .string()
      .regex(new RegExp(DECIDED_BY))
      .nullable()
      .meta({
        anyOf: undefined,
        type: ['string', 'null'],
        pattern: DECIDED_BY,
        description:
          'Who decided: test-mode (at once, by the file names), operator (the operator token), ' +
          'staff:<staffId> (a staff member), or staff (decided before staff had identities); null while pending.',
        examples: [`staff:${'5f3c'.repeat(6)}`],
      }),
    filesDeletedAt: instant('When retention deleted the files; null before.'),
    segment: z
      .enum(segmentNames)
      .nullable()
      .meta({
        description:
          "The verification's audience segment; null for reviews submitted before it was recorded (they are " +
          'not found by the segment filter).',
      }),
    claimedBy: z
      .string()
      .regex(new RegExp(CLAIMED_BY))
      .nullable()
      .meta({
        anyOf: undefined,
        type: ['string', 'null'],
        pattern: CLAIMED_BY,
        description:
          'Who holds the review (POST /reviews/{reviewId}/claim): staff:<staffId> or operator; null when nobody ' +
          'does (never claimed, released, decided, or the claim ran out).',
        examples: [`staff:${'5f3c'.repeat(6)}`],
      }),
    claimExpiresAt: instant('When the claim runs out unless its holder claims again; null without a claim.'),
  })
  .meta({ id: 'Review' });

export const ReviewDetail = z
  .intersection(
    Review,
    z.object({
      files: z.array(
        z.object({
          documentId: z.string(),
          url: z.string().meta({
            format: 'uri',
            description:
              'GET /rest/admin/v1/reviews/{reviewId}/files/{documentId} under the public base URL: the file ' +
              'itself, read with the same credentials as this answer (operator token or staff session).',
          }),
          expiresAt: instant('null: the link does not expire (it needs the credentials).'),
        }),
      ),
    }),
  )
  .meta({
    id: 'ReviewDetail',
    description:
      'A review with a link to each of its stored files, served through the admin API (none once retention ' +
      'deleted them).',
  });

export const ReviewPage = z
  .object({
    reviews: z.array(Review),
    nextCursor: z.string().nullable().meta({ description: 'null on the last page.' }),
  })
  .meta({ id: 'ReviewPage' });

export type ReviewJson = z.input<typeof Review>;
export type ReviewDetailJson = z.input<typeof ReviewDetail>;
export type ReviewPageJson = z.input<typeof ReviewPage>;
