import { zodSays } from '../../test/check-answers';
import { documentBefore } from '../../test/document-before';
import { createDocumentValidator } from '../../test/document-validator';
import { Review } from './admin-review-schemas';
import { checkBody } from './body-check';
import { endpointSchemas } from './index';
import { cursorPagingRows, readQuery } from '../../test/query-reader';
import { ReviewDecisionInput, listReviews } from './admin-reviews';
import { segmentNames } from '@eligo/vocabulary';

// What the OpenAPI validator (Ajv over the hand-written openapi/schemas/verification-admin.ts, its
// if/then/else included) answered for each decision, and what the hand-written readers
// (validation/query-params.ts) answered for each query, captured before the schemas became the definitions'
// zod schemas: the definitions must answer the same.

describe('ReviewDecisionInput', () => {
  it.each<[unknown, string | undefined]>([
    [{}, 'body.rejectionReasons is required (a rejection takes 1 to 10 reasons)'],
    [{ decision: 'approve' }, undefined],
    [{ decision: 'reject' }, 'body.rejectionReasons is required (a rejection takes 1 to 10 reasons)'],
    [
      { decision: 'reject', rejectionReasons: [] },
      'body.rejectionReasons must NOT have fewer than 1 items (a rejection takes 1 to 10 reasons)',
    ],
    [{ decision: 'reject', rejectionReasons: ['DOCUMENT_UNREADABLE'] }, undefined],
    [
      {
        decision: 'reject',
        rejectionReasons: [
          'REASON_0',
          'REASON_1',
          'REASON_2',
          'REASON_3',
          'REASON_4',
          'REASON_5',
          'REASON_6',
          'REASON_7',
          'REASON_8',
          'REASON_9',
          'REASON_10',
        ],
      },
      'body.rejectionReasons must NOT have more than 10 items',
    ],
    [
      { decision: 'reject', rejectionReasons: ['X'] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [
      { decision: 'reject', rejectionReasons: ['blurry photo'] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [
      { decision: 'reject', rejectionReasons: 'DOCUMENT_EXPIRED' },
      'body.rejectionReasons must be array (a rejection takes 1 to 10 reasons)',
    ],
    [
      { decision: 'approve', note: 'x' },
      'body has unexpected property note (allowed: decision, rejectionReasons)',
    ],
    [
      { decision: 'approve', rejectionReasons: ['DOCUMENT_UNREADABLE'] },
      'body.rejectionReasons must NOT have more than 0 items (an approval takes no rejection reasons)',
    ],
    [{ decision: 'approve', rejectionReasons: [] }, undefined],
    [{ decision: 'maybe' }, 'body.decision must be one of approve, reject'],
    [
      { decision: 'maybe', note: 1 },
      'body has unexpected property note (allowed: decision, rejectionReasons)',
    ],
    [
      { note: 1, decision: 'approve' },
      'body has unexpected property note (allowed: decision, rejectionReasons)',
    ],
    [
      { decision: 'approve', rejectionReasons: 'x' },
      'body.rejectionReasons must be array (an approval takes no rejection reasons)',
    ],
    [{ rejectionReasons: 'x' }, 'body.rejectionReasons must be array (a rejection takes 1 to 10 reasons)'],
    [
      { rejectionReasons: [] },
      'body.rejectionReasons must NOT have fewer than 1 items (a rejection takes 1 to 10 reasons)',
    ],
    [{ rejectionReasons: ['AB'] }, 'body.decision is required'],
    [{ decision: 'reject', rejectionReasons: ['AB', 3] }, 'body.rejectionReasons[1] must be string'],
    [
      { decision: 'reject', rejectionReasons: ['AB'], note: 1 },
      'body has unexpected property note (allowed: decision, rejectionReasons)',
    ],
    [{ decision: null }, 'body.decision must be string'],
    [
      { decision: 'approve', rejectionReasons: null },
      'body.rejectionReasons must be array (an approval takes no rejection reasons)',
    ],
    [
      { decision: 'reject', rejectionReasons: null },
      'body.rejectionReasons must be array (a rejection takes 1 to 10 reasons)',
    ],
    [[], 'body must be object'],
    [null, 'body must be object'],
    ['reject', 'body must be object'],
    [{ decision: ['reject'] }, 'body.decision must be string'],
    [
      { decision: 'reject', rejectionReasons: Array(11).fill(1) },
      'body.rejectionReasons must NOT have more than 10 items',
    ],
    [
      { decision: 'approve', rejectionReasons: [1] },
      'body.rejectionReasons must NOT have more than 0 items (an approval takes no rejection reasons)',
    ],
    [
      { decision: 'reject', rejectionReasons: ['A' + 'x'.repeat(63)] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [
      { decision: 'reject', rejectionReasons: ['A' + 'X'.repeat(64)] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [{ decision: 'reject', rejectionReasons: ['DOCUMENT_EXPIRED', 'DOCUMENT_EXPIRED'] }, undefined],
    [
      { decision: 7, rejectionReasons: ['AB'] },
      'body.rejectionReasons must NOT have more than 0 items (an approval takes no rejection reasons)',
    ],
    [{ decision: 'reject', rejectionReasons: ['A' + 'X'.repeat(63)] }, undefined],
    [{ decision: 'reject', rejectionReasons: ['A_1', 'B2'] }, undefined],
    [
      { decision: 'reject', rejectionReasons: ['1AB'] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [{ decision: 'reject', rejectionReasons: [null] }, 'body.rejectionReasons[0] must be string'],
    [
      { decision: 'reject', rejectionReasons: {} },
      'body.rejectionReasons must be array (a rejection takes 1 to 10 reasons)',
    ],
    [{ decision: 'APPROVE' }, 'body.decision must be one of approve, reject'],
  ])('judges %j as the OpenAPI validator did', (body, expected) => {
    expect(zodSays(ReviewDecisionInput, body)).toBe(expected);
  });
});

describe('GET /reviews', () => {
  const programId = 'ab'.repeat(12);
  it.each<[Record<string, unknown>, unknown]>([
    ...cursorPagingRows('status, programId, segment, order, limit, cursor'),
    [{ status: 'PENDING' }, 'query.status must be one of pending, approved, rejected'],
    [{ status: 'pending' }, { status: 'pending' }],
    [{ status: 'parked' }, 'query.status must be one of pending, approved, rejected'],
    [{ status: 'all' }, 'query.status must be one of pending, approved, rejected'],
    [{ status: 'open' }, 'query.status must be one of pending, approved, rejected'],
    [{ status: ['pending', 'approved'] }, 'query.status must be given once, as a plain value'],
    [
      { status: 'pending', limit: '20', cursor: 'abc' },
      { status: 'pending', limit: 20, cursor: 'abc' },
    ],
    [{ status: 'x', limit: 'x' }, 'query.status must be one of pending, approved, rejected'],
  ])('reads %j as the hand-written readers did', (query, expected) => {
    expect(readQuery(listReviews, query)).toEqual(expected);
  });

  // The staff console's queue: filters by program and segment, and the order (new since the capture).
  it.each<[Record<string, unknown>, unknown]>([
    [
      { status: 'pending', order: 'oldest', programId, segment: 'student' },
      { status: 'pending', order: 'oldest', programId, segment: 'student' },
    ],
    [{ order: 'newest' }, { order: 'newest' }],
    [{ order: 'asc' }, 'query.order must be one of oldest, newest'],
    [{ order: '' }, 'query.order must not be empty (leave it out instead)'],
    [{ programId: 'AB'.repeat(12) }, expect.stringMatching(/^query\.programId /)],
    [{ programId: 'p1' }, expect.stringMatching(/^query\.programId /)],
    [{ segment: 'pirate' }, `query.segment must be one of ${segmentNames.join(', ')}`],
    [{ segment: ['student', 'military'] }, 'query.segment must be given once, as a plain value'],
  ])('reads %j', (query, expected) => {
    expect(readQuery(listReviews, query)).toEqual(expected);
  });
});

describe('Review: the segment and the claim (changed on purpose: test/document-before.ts)', () => {
  const validator = createDocumentValidator();
  const holder = `staff:${'0a'.repeat(12)}`;
  const review = (fields: Record<string, unknown>) => ({
    ...reviewOf(null),
    ...fields,
  });

  it.each<[Record<string, unknown>]>([
    [{ segment: 'student', claimedBy: holder, claimExpiresAt: '2025-03-01T10:05:00.000Z' }],
    [{ segment: 'military', claimedBy: 'operator', claimExpiresAt: '2025-03-01T10:05:00.000Z' }],
    [{ segment: null, claimedBy: null, claimExpiresAt: null }],
  ])('takes %j', (fields) => {
    expect(validator.check('Review', review(fields))).toBeUndefined();
    expect(checkBody(Review, review(fields)).ok).toBe(true);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ segment: 'pirate' }, 'body.segment'],
    [{ claimedBy: 'staff' }, 'body.claimedBy must match pattern "^(operator|staff:[0-9a-f]{24})$"'],
    [{ claimedBy: 'test-mode' }, 'body.claimedBy must match pattern "^(operator|staff:[0-9a-f]{24})$"'],
    [{ claimExpiresAt: 5 }, 'body.claimExpiresAt'],
  ])('refuses %j', (fields, message) => {
    expect(validator.check('Review', review(fields))).toContain(message);
    expect(checkBody(Review, review(fields)).ok).toBe(false);
  });

  it("states the files' links as the admin API's own route, which does not expire", () => {
    const files = (
      endpointSchemas.ReviewDetail as { allOf: { properties?: Record<string, unknown> }[] }
    ).allOf
      .map((part) => part.properties?.files)
      .find(Boolean) as { items: { properties: Record<string, { description: string }> } };
    expect(files.items.properties.url!.description).toContain('/rest/admin/v1/reviews/{reviewId}/files/');
    expect(files.items.properties.expiresAt!.description).toContain('null');
  });
});

/** A decided review as the document describes it, decided by `decidedBy`. */
const reviewOf = (decidedBy: unknown) => ({
  reviewId: '3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b',
  verificationId: 'ab'.repeat(12),
  programId: 'cd'.repeat(12),
  accountId: 'ef'.repeat(12),
  status: 'approved',
  testMode: false,
  documents: [],
  rejectionReasons: [],
  submittedAt: '2025-03-01T10:00:00.000Z',
  decidedAt: '2025-03-01T11:00:00.000Z',
  decidedBy,
  filesDeletedAt: null,
  segment: 'student',
  claimedBy: null,
  claimExpiresAt: null,
});

describe('Review.decidedBy (changed on purpose: test/document-before.ts)', () => {
  const validator = createDocumentValidator();
  const review = reviewOf;

  it('states the pattern of who decided beside null, and is otherwise the captured schema (and the queue’s fields)', () => {
    const { decidedBy, ...others } = documentBefore.components.schemas.Review!.properties as Record<
      string,
      unknown
    >;
    const stated = endpointSchemas.Review!;
    expect(decidedBy).toEqual({ type: ['string', 'null'], enum: ['staff', 'test-mode', null] });
    expect(stated.properties).toMatchObject({
      ...others,
      decidedBy: { type: ['string', 'null'], pattern: '^(test-mode|operator|staff|staff:[0-9a-f]{24})$' },
    });
    const queue = ['segment', 'claimedBy', 'claimExpiresAt'];
    expect(Object.keys(stated.properties as object)).toEqual([
      ...Object.keys(documentBefore.components.schemas.Review!.properties as object),
      ...queue,
    ]);
    expect({ ...stated, properties: undefined, required: undefined }).toEqual({
      ...documentBefore.components.schemas.Review,
      properties: undefined,
      required: undefined,
    });
    expect(stated.required).toEqual([
      ...(documentBefore.components.schemas.Review!.required as string[]),
      ...queue,
    ]);
  });

  it.each([['staff'], ['test-mode'], ['operator'], [`staff:${'0a'.repeat(12)}`], [null]])(
    'takes %j',
    (decidedBy) => {
      expect(validator.check('Review', review(decidedBy))).toBeUndefined();
      expect(checkBody(Review, review(decidedBy)).ok).toBe(true);
    },
  );

  it.each([['staff:'], ['Operator'], [`staff:${'0A'.repeat(12)}`], ['someone']])(
    'refuses %j',
    (decidedBy) => {
      expect(validator.check('Review', review(decidedBy))).toBe(
        'body.decidedBy must match pattern "^(test-mode|operator|staff|staff:[0-9a-f]{24})$"',
      );
      expect(checkBody(Review, review(decidedBy)).ok).toBe(false);
    },
  );
});
