import { documentsV1 } from '@eligo/proto';
import { reviewDetailToJson, reviewPageToJson, reviewToJson } from './review';

const reviewId = '3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b';
const submittedAt = new Date('2025-03-01T10:00:00.000Z');
const decidedAt = new Date('2025-03-01T10:20:00.000Z');
const review = (fields: Partial<documentsV1.Review> = {}) =>
  documentsV1.Review.fromPartial({
    reviewId,
    verificationId: '0123456789abcdef01234567',
    programId: 'ab'.repeat(12),
    accountId: 'cd'.repeat(12),
    status: 'pending',
    documents: [
      {
        documentId: 'd1',
        status: 'UPLOADED',
        mimeType: 'image/png',
        fileSize: 2048,
        uploadToken: 'never-shown',
        fileName: 'student-id.png',
      },
    ],
    submittedAt,
    ...fields,
  });

describe('review JSON', () => {
  it('shows a pending review with camelCase names, ISO times, nulls for what is not set yet', () => {
    expect(reviewToJson(review())).toEqual({
      reviewId,
      verificationId: '0123456789abcdef01234567',
      programId: 'ab'.repeat(12),
      accountId: 'cd'.repeat(12),
      status: 'pending',
      testMode: false,
      documents: [
        {
          documentId: 'd1',
          fileName: 'student-id.png',
          status: 'UPLOADED',
          mimeType: 'image/png',
          fileSize: 2048,
          errors: [],
        },
      ],
      rejectionReasons: [],
      submittedAt: '2025-03-01T10:00:00.000Z',
      decidedAt: null,
      decidedBy: null,
      filesDeletedAt: null,
      segment: null,
      claimedBy: null,
      claimExpiresAt: null,
    });
  });

  it('shows the segment and who holds the review until when', () => {
    const claimExpiresAt = new Date('2025-03-01T10:05:00.000Z');
    const holder = `staff:${'5f'.repeat(12)}`;
    expect(reviewToJson(review({ segment: 'student', claimedBy: holder, claimExpiresAt }))).toMatchObject({
      segment: 'student',
      claimedBy: holder,
      claimExpiresAt: '2025-03-01T10:05:00.000Z',
    });
    // A lease end without a holder is no claim.
    expect(reviewToJson(review({ claimExpiresAt }))).toMatchObject({ claimedBy: null, claimExpiresAt: null });
  });

  it('refuses a segment the document does not list (a broken contract is a 500)', () => {
    expect(() => reviewToJson(review({ segment: 'pirate' }))).toThrow(/segment pirate/);
  });

  it('shows who decided, when, and why', () => {
    const json = reviewToJson(
      review({
        status: 'rejected',
        rejectionReasons: ['DOCUMENT_UNREADABLE'],
        decidedAt,
        decidedBy: 'staff',
        filesDeletedAt: new Date('2025-04-01T00:00:00.000Z'),
      }),
    );
    expect(json).toMatchObject({
      status: 'rejected',
      rejectionReasons: ['DOCUMENT_UNREADABLE'],
      decidedAt: '2025-03-01T10:20:00.000Z',
      decidedBy: 'staff',
      filesDeletedAt: '2025-04-01T00:00:00.000Z',
    });
  });

  it("links each file to the admin API's own route, never to the documents service's link", () => {
    const json = reviewDetailToJson(
      {
        review: review(),
        files: [{ documentId: 'd1', url: 'https://files.example/d1?sig=x', expiresAt: decidedAt }],
      },
      'https://eligo.example.com',
    );
    expect(json.files).toEqual([
      {
        documentId: 'd1',
        url: `https://eligo.example.com/rest/admin/v1/reviews/${reviewId}/files/d1`,
        expiresAt: null,
      },
    ]);
    expect(json.reviewId).toBe(reviewId);
  });

  it('refuses a detail reply without its review (a broken contract is a 500, not an empty body)', () => {
    expect(() => reviewDetailToJson({ review: undefined, files: [] }, 'https://eligo.example.com')).toThrow(
      /without review/,
    );
  });

  it('pages with a null cursor on the last page', () => {
    expect(reviewPageToJson({ reviews: [review()], nextCursor: 'c2' })).toMatchObject({
      reviews: [{ reviewId }],
      nextCursor: 'c2',
    });
    expect(reviewPageToJson({ reviews: [], nextCursor: '' })).toEqual({ reviews: [], nextCursor: null });
  });
});
