import { documentsV1 } from '@eligo/proto';
import { failedPrecondition, invalidArgument, notFound } from '@eligo/runtime';
import type { DocumentsClient } from '../../clients/documents.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';
import { standIn } from '../../../test/stand-in';

// The review queue under /rest/admin/v1 as mounted by mountRest, against a recording documents stand-in.
const operator = TEST_OPERATOR_TOKEN;
const reviewId = '3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b';
const fileId = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
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
  claimReview: answer('claimReview', {
    review: review({
      segment: 'student',
      claimedBy: 'operator',
      claimExpiresAt: new Date('2025-03-01T10:05:00.000Z'),
    }),
    files: [
      { documentId: 'd1', url: 'http://store/d1?sig=1', expiresAt: new Date('2025-03-01T10:05:00.000Z') },
    ],
  }),
  releaseReview: answer('releaseReview', { review: review() }),
  // The file as the documents service streams it: planned parts, or an error before or after them.
  readReviewFile: (req: documentsV1.ReadReviewFileRequest, signal?: AbortSignal) => {
    calls.push(['readReviewFile', req]);
    const next = planned.get('readReviewFile') as FileStream | Error | undefined;
    planned.delete('readReviewFile');
    return stream(next ?? { parts: pngParts }, signal);
  },
});

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(300, 7)]);
const pngParts: documentsV1.ReadReviewFileResponse[] = [
  { part: { $case: 'file', file: { documentId: 'd1', contentType: 'image/png', size: PNG.length } } },
  { part: { $case: 'chunk', chunk: PNG.subarray(0, 100) } },
  { part: { $case: 'chunk', chunk: PNG.subarray(100) } },
];
interface FileStream {
  parts: documentsV1.ReadReviewFileResponse[];
  /** Thrown after the parts. */
  failure?: Error;
}
async function* stream(plan: FileStream | Error, signal?: AbortSignal) {
  if (plan instanceof Error) throw plan;
  for (const part of plan.parts) {
    if (signal?.aborted) return;
    yield part;
  }
  if (plan.failure) throw plan.failure;
}

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
    ['POST', `/reviews/${reviewId}/claim`],
    ['DELETE', `/reviews/${reviewId}/claim`],
    ['GET', `/reviews/${reviewId}/files/${fileId}`],
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
    expect(calls).toEqual([
      ['listReviews', { status: 'pending', limit: 20, cursor: 'abc', programId: '', segment: '', order: '' }],
    ]);
  });

  it('passes the program and segment filters and the order on', async () => {
    const programId = 'ab'.repeat(12);
    const res = await call(
      'GET',
      `/reviews?status=pending&order=oldest&programId=${programId}&segment=student`,
    );
    expect(res.status).toBe(200);
    expect(calls).toEqual([
      [
        'listReviews',
        { status: 'pending', limit: 0, cursor: '', programId, segment: 'student', order: 'oldest' },
      ],
    ]);
    calls.length = 0;
    await call('GET', '/reviews?order=newest');
    expect(calls).toEqual([
      ['listReviews', { status: '', limit: 0, cursor: '', programId: '', segment: '', order: 'newest' }],
    ]);
  });

  it('leaves unset parameters to the service’s defaults', async () => {
    await call('GET', '/reviews');
    expect(calls).toEqual([
      ['listReviews', { status: '', limit: 0, cursor: '', programId: '', segment: '', order: '' }],
    ]);
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
    'programId=p1',
    `programId=${'AB'.repeat(12)}`,
    'programId=',
    'segment=pirate',
    'segment=',
    'order=asc',
    'order=',
  ])('refuses %s with 400 invalidRequest', async (query) => {
    const res = await call('GET', `/reviews?${query}`);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
    expect(calls).toEqual([]);
  });
});

describe('GET /reviews/{reviewId}', () => {
  it("answers the review with links to the admin API's own file route, not to be cached", async () => {
    const res = await call('GET', `/reviews/${reviewId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      reviewId,
      documents: [{ documentId: 'd1', fileName: 'a.png' }],
      files: [
        {
          documentId: 'd1',
          url: `https://eligo.example.com/rest/admin/v1/reviews/${reviewId}/files/d1`,
          expiresAt: null,
        },
      ],
      segment: null,
      claimedBy: null,
      claimExpiresAt: null,
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

  it('answers 409 ER [reviewClaimed] while another reviewer holds the review', async () => {
    planned.set('decideReview', claimedError());
    const res = await call('POST', `/reviews/${reviewId}/decision`, { decision: 'approve' });
    expect([res.status, res.body]).toEqual([
      409,
      { errorIds: ['reviewClaimed'], systemErrorMessage: claimedMessage },
    ]);
  });
});

const claimedMessage = 'Another reviewer has claimed this review until 2025-03-01T10:05:00.000Z';
const claimedError = () => failedPrecondition(claimedMessage, { reason: 'reviewClaimed' });

describe('POST /reviews/{reviewId}/claim', () => {
  it('claims for the caller, and answers the review with the claim and its file links, not to be cached', async () => {
    const res = await call('POST', `/reviews/${reviewId}/claim`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      reviewId,
      segment: 'student',
      claimedBy: 'operator',
      claimExpiresAt: '2025-03-01T10:05:00.000Z',
      files: [
        { documentId: 'd1', url: `https://eligo.example.com/rest/admin/v1/reviews/${reviewId}/files/d1` },
      ],
    });
    // The operator token holds as `operator` (a staff session as `staff:<staffId>`: e2e review-queue).
    expect(calls).toEqual([['claimReview', { reviewId, holder: 'operator' }]]);
  });

  it('answers 409 ER [reviewClaimed] for another holder, 409 SEM once decided, 404 unknown', async () => {
    planned.set('claimReview', claimedError());
    const claimed = await call('POST', `/reviews/${reviewId}/claim`);
    expect([claimed.status, claimed.body]).toEqual([
      409,
      { errorIds: ['reviewClaimed'], systemErrorMessage: claimedMessage },
    ]);
    planned.set(
      'claimReview',
      failedPrecondition('Already decided (approved)', { reason: 'alreadyDecided' }),
    );
    const decided = await call('POST', `/reviews/${reviewId}/claim`);
    expect([decided.status, decided.body]).toEqual([
      409,
      { systemErrorMessage: 'Already decided (approved)' },
    ]);
    planned.set('claimReview', notFound('Review not found'));
    expect((await call('POST', `/reviews/${reviewId}/claim`)).status).toBe(404);
    calls.length = 0;
    expect((await call('POST', '/reviews/nope/claim')).status).toBe(404);
    expect(calls).toEqual([]);
  });

  it('ignores a body (the operation takes none): the holder is always the caller', async () => {
    const res = await call('POST', `/reviews/${reviewId}/claim`, { holder: 'someone' });
    expect(res.status).toBe(200);
    expect(calls).toEqual([['claimReview', { reviewId, holder: 'operator' }]]);
  });
});

describe('DELETE /reviews/{reviewId}/claim', () => {
  it("gives the caller's claim up: 204", async () => {
    const res = await fetch(`${url}/reviews/${reviewId}/claim`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${operator}` },
    });
    expect([res.status, await res.text()]).toEqual([204, '']);
    expect(calls).toEqual([['releaseReview', { reviewId, holder: 'operator' }]]);
  });

  it("answers 409 ER [reviewClaimed] for another's claim", async () => {
    planned.set('releaseReview', claimedError());
    const res = await call('DELETE', `/reviews/${reviewId}/claim`);
    expect([res.status, res.body]).toEqual([
      409,
      { errorIds: ['reviewClaimed'], systemErrorMessage: claimedMessage },
    ]);
  });
});

describe('GET /reviews/{reviewId}/files/{documentId}', () => {
  const path = `/reviews/${reviewId}/files/${fileId}`;
  const get = (p = path) => fetch(`${url}${p}`, { headers: { authorization: `Bearer ${operator}` } });

  it('streams the file with its type, inline, sandboxed, never sniffed nor cached', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(
      Object.fromEntries(
        [
          'content-type',
          'content-length',
          'content-disposition',
          'x-content-type-options',
          'content-security-policy',
          'cache-control',
        ].map((h) => [h, res.headers.get(h)]),
      ),
    ).toEqual({
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'; img-src 'self'; object-src 'self'",
      'cache-control': 'private, no-store',
    });
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect(calls).toEqual([['readReviewFile', { reviewId, documentId: fileId, reader: 'operator' }]]);
  });

  it('answers 404 for ids that are not UUIDs, without a call', async () => {
    for (const p of [`/reviews/nope/files/${fileId}`, `/reviews/${reviewId}/files/d1`]) {
      const res = await get(p);
      expect([p, res.status]).toEqual([p, 404]);
    }
    expect(calls).toEqual([]);
  });

  it('answers the service’s refusal before any byte as JSON (404 for a file not of the review)', async () => {
    planned.set('readReviewFile', notFound('No such file in this review'));
    const res = await get();
    expect([res.status, await res.json()]).toEqual([
      404,
      { systemErrorMessage: 'No such file in this review' },
    ]);
  });

  /** The answer, read whole; undefined when the connection broke off (before or after the headers). */
  const whole = async (): Promise<Buffer | undefined> => {
    try {
      return Buffer.from(await (await get()).arrayBuffer());
    } catch {
      return undefined;
    }
  };

  it('breaks the connection off when the stream fails after the first bytes', async () => {
    planned.set('readReviewFile', { parts: pngParts.slice(0, 2), failure: new Error('store went away') });
    expect(await whole()).toBeUndefined();
    // The same file whole, to show that the check above can fail.
    expect(await whole()).toEqual(PNG);
  });

  it('breaks the connection off when the stream ends short of the size it announced', async () => {
    planned.set('readReviewFile', { parts: pngParts.slice(0, 2) });
    expect(await whole()).toBeUndefined();
  });

  it('breaks the connection off when the stream sends more than it announced', async () => {
    planned.set('readReviewFile', {
      parts: [...pngParts, { part: { $case: 'chunk', chunk: Buffer.from('more') } }],
    });
    expect(await whole()).toBeUndefined();
  });
});
