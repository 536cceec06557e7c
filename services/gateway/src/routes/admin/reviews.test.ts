import { documentsV1 } from '@eligo/proto';
import { failedPrecondition, invalidArgument } from '@eligo/runtime';
import type { DocumentsClient } from '../../clients/documents.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';
import { standIn } from '../../../test/stand-in';

// The review queue under /rest/admin/v1 as mounted by mountRest, against a recording documents stand-in.
const operator = TEST_OPERATOR_TOKEN;
const reviewId = '3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b';
const review = (fields: Partial<documentsV1.Review> = {}) =>
  documentsV1.Review.fromPartial({
    reviewId,
    verificationId: '0123456789abcdef01234567',
    status: 'pending',
    documents: [
      { documentId: 'd1', status: 'UPLOADED', mimeType: 'image/png', fileSize: 10, fileName: 'a.png' },
    ],
    submittedAt: new Date('2025-03-01T10:00:00.000Z'),
    ...fields,
  });

const calls: [string, unknown][] = [];
const planned = new Map<string, unknown>();
const answer =
  <Res>(method: string, fallback: Res) =>
  async (req: unknown): Promise<Res> => {
    calls.push([method, req]);
    const next = planned.get(method);
    planned.delete(method);
    if (next instanceof Error) throw next;
    return (next as Res | undefined) ?? fallback;
  };
const documents = standIn<DocumentsClient>('documents', {
  listReviews: answer('listReviews', { reviews: [review()], nextCursor: 'next-1' }),
  getReview: answer('getReview', {
    review: review(),
    files: [
      { documentId: 'd1', url: 'http://store/d1?sig=1', expiresAt: new Date('2025-03-01T10:05:00.000Z') },
    ],
  }),
  decideReview: answer('decideReview', {
    review: review({
      status: 'approved',
      decidedBy: 'staff',
      decidedAt: new Date('2025-03-01T11:00:00.000Z'),
    }),
  }),
});

let url: string;
let app: TestRestApp;

beforeAll(async () => {
  app = await startTestRestApp({ documents, bodyLimit: '1kb' });
  url = `${app.origin}/rest/admin/v1`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  planned.clear();
});

async function call(method: string, path: string, body?: unknown, token: string | null = operator) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

it('needs the operator token on every review route, before any service call', async () => {
  for (const [method, path] of [
    ['GET', '/reviews'],
    ['GET', `/reviews/${reviewId}`],
    ['POST', `/reviews/${reviewId}/decision`],
  ] as const) {
    for (const token of [null, 'eligo_account_token']) {
      const res = await call(method, path, undefined, token);
      expect([method, path, res.status]).toEqual([method, path, 401]);
    }
  }
  expect(calls).toEqual([]);
});

describe('GET /reviews', () => {
  it('passes the filter, page size and cursor on, and answers one page', async () => {
    const res = await call('GET', '/reviews?status=pending&limit=20&cursor=abc');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      reviews: [{ reviewId, status: 'pending', submittedAt: '2025-03-01T10:00:00.000Z', decidedAt: null }],
      nextCursor: 'next-1',
    });
    expect(calls).toEqual([['listReviews', { status: 'pending', limit: 20, cursor: 'abc' }]]);
  });

  it('leaves unset parameters to the service’s defaults', async () => {
    await call('GET', '/reviews');
    expect(calls).toEqual([['listReviews', { status: '', limit: 0, cursor: '' }]]);
  });

  it('answers a cursor the documents service cannot read 400 ER invalidRequest, as every admin 400', async () => {
    planned.set('listReviews', invalidArgument('Invalid cursor'));
    const res = await call('GET', '/reviews?cursor=forged');
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'Invalid cursor' },
    ]);
  });

  it.each([
    'status=open',
    'status=',
    'limit=0',
    'limit=101',
    'limit=x',
    'limit=',
    'status=pending&status=approved',
    'cursor=a%00b',
    'cursor=',
    'stauts=pending',
  ])('refuses %s with 400 invalidRequest', async (query) => {
    const res = await call('GET', `/reviews?${query}`);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
    expect(calls).toEqual([]);
  });
});

describe('GET /reviews/{reviewId}', () => {
  it('answers the review with its short-lived file links, not to be cached', async () => {
    const res = await call('GET', `/reviews/${reviewId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      reviewId,
      documents: [{ documentId: 'd1', fileName: 'a.png' }],
      files: [{ documentId: 'd1', url: 'http://store/d1?sig=1', expiresAt: '2025-03-01T10:05:00.000Z' }],
    });
    expect(calls).toEqual([['getReview', { reviewId }]]);
  });

  it('answers 404 for an id that is not a UUID, without a call', async () => {
    const res = await call('GET', '/reviews/0123456789abcdef01234567');
    expect([res.status, res.body]).toEqual([404, { systemErrorMessage: 'Review not found' }]);
    expect(calls).toEqual([]);
  });
});

describe('POST /reviews/{reviewId}/decision', () => {
  it('passes the decision on and answers the decided review', async () => {
    const res = await call('POST', `/reviews/${reviewId}/decision`, { decision: 'approve' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ reviewId, status: 'approved', decidedBy: 'staff' });
    // The operator token decides as `operator` (a staff session as `staff:<staffId>`: staff/staff.int.test.ts).
    expect(calls).toEqual([
      ['decideReview', { reviewId, decision: 'approve', rejectionReasons: [], decidedBy: 'operator' }],
    ]);
    calls.length = 0;
    await call('POST', `/reviews/${reviewId}/decision`, {
      decision: 'reject',
      rejectionReasons: ['DOCUMENT_UNREADABLE', 'MISMATCH_PERSON_FIRST_NAME'],
    });
    expect(calls).toEqual([
      [
        'decideReview',
        {
          reviewId,
          decision: 'reject',
          rejectionReasons: ['DOCUMENT_UNREADABLE', 'MISMATCH_PERSON_FIRST_NAME'],
          decidedBy: 'operator',
        },
      ],
    ]);
  });

  it.each([
    [{}],
    [{ decision: 'maybe' }],
    [{ decision: 'reject', rejectionReasons: ['blurry photo'] }],
    [{ decision: 'reject', rejectionReasons: 'DOCUMENT_EXPIRED' }],
    [{ decision: 'approve', note: 'x' }],
  ])('refuses %j with 400 invalidRequest, without a call', async (body) => {
    const res = await call('POST', `/reviews/${reviewId}/decision`, body);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
    expect(calls).toEqual([]);
  });

  // The documents service's rules (services/documents/src/domain/decision.ts), now the document's schema.
  it.each<[unknown, string]>([
    [{ decision: 'reject' }, 'body.rejectionReasons is required (a rejection takes 1 to 10 reasons)'],
    [
      { decision: 'reject', rejectionReasons: [] },
      'body.rejectionReasons must NOT have fewer than 1 items (a rejection takes 1 to 10 reasons)',
    ],
    [
      { decision: 'reject', rejectionReasons: Array.from({ length: 11 }, (_, i) => `REASON_${i}`) },
      'body.rejectionReasons must NOT have more than 10 items',
    ],
    [
      { decision: 'reject', rejectionReasons: ['X'] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [
      { decision: 'approve', rejectionReasons: ['DOCUMENT_UNREADABLE'] },
      'body.rejectionReasons must NOT have more than 0 items (an approval takes no rejection reasons)',
    ],
  ])('refuses %j as the documents service would, without a call', async (body, message) => {
    const res = await call('POST', `/reviews/${reviewId}/decision`, body);
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });

  it('takes an approval with an empty list of reasons', async () => {
    const res = await call('POST', `/reviews/${reviewId}/decision`, {
      decision: 'approve',
      rejectionReasons: [],
    });
    expect(res.status).toBe(200);
    expect(calls).toEqual([
      ['decideReview', { reviewId, decision: 'approve', rejectionReasons: [], decidedBy: 'operator' }],
    ]);
  });

  it('passes the service’s refusals through, a 400 as ER invalidRequest (409 decided already)', async () => {
    planned.set('decideReview', invalidArgument('A rejection needs 1 to 10 rejection reasons'));
    const refused = await call('POST', `/reviews/${reviewId}/decision`, {
      decision: 'reject',
      rejectionReasons: ['DOCUMENT_UNREADABLE'],
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'A rejection needs 1 to 10 rejection reasons' },
    ]);
    planned.set('decideReview', failedPrecondition('Review already decided', { reason: 'alreadyDecided' }));
    const decided = await call('POST', `/reviews/${reviewId}/decision`, { decision: 'approve' });
    expect([decided.status, decided.body]).toEqual([409, { systemErrorMessage: 'Review already decided' }]);
  });
});
