import { randomBytes } from 'node:crypto';
import { waitFor } from '@eligo/local-infra';
import type { documentsV1 } from '@eligo/proto';
import { MAX_CHUNK } from '../src/app/read-review-file';
import { PDF, PNG } from './files';
import {
  failure,
  file,
  newProgram,
  rawBytes,
  startDocuments,
  uploadAll,
  type FileToSend,
  type Harness,
  type TestProgram,
} from './support';

/**
 * The staff console's review queue on real Postgres and MinIO: the segment each review records, the program
 * and segment filters in both orders, claims with a lease (ELIGO_DOCUMENTS_REVIEW_CLAIM_SECONDS, 3 s here)
 * that keep two reviewers from deciding the same review, and files read decrypted through ReadReviewFile,
 * each read recorded.
 */
describe('the review queue', () => {
  const LEASE_MS = 3000;
  let h: Harness;
  let program: TestProgram;
  beforeAll(async () => {
    h = await startDocuments({ ELIGO_DOCUMENTS_REVIEW_CLAIM_SECONDS: String(LEASE_MS / 1000) });
    program = await newProgram(h);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const A = `staff:${'a1'.repeat(12)}`;
  const B = `staff:${'b2'.repeat(12)}`;

  /** A pending review (test mode leaves a file name without ACCEPTED or REJECTED to staff). */
  async function pending(
    p: TestProgram = program,
    files: FileToSend[] = [file('card.png', 'image/png', PNG)],
  ) {
    const upload = await uploadAll(h, p, files);
    const { reviewId } = await h.documents.unary('completeUpload', {
      verificationId: upload.verificationId,
      uploadId: upload.uploadId,
    });
    return { ...upload, reviewId };
  }
  const list = (request: Partial<documentsV1.ListReviewsRequest>) =>
    h.documents.unary('listReviews', {
      status: '',
      limit: 0,
      cursor: '',
      programId: '',
      segment: '',
      order: '',
      ...request,
    });
  /** Every page of a listing, in the order given. */
  async function listAll(request: Partial<documentsV1.ListReviewsRequest>): Promise<string[]> {
    const ids: string[] = [];
    let cursor = '';
    do {
      const page = await list({ ...request, limit: 2, cursor });
      ids.push(...page.reviews.map((r) => r.reviewId));
      cursor = page.nextCursor;
    } while (cursor !== '');
    return ids;
  }
  const claim = (reviewId: string, holder: string) => h.documents.unary('claimReview', { reviewId, holder });
  const release = (reviewId: string, holder: string) =>
    h.documents.unary('releaseReview', { reviewId, holder });
  const decide = (reviewId: string, decidedBy: string) =>
    h.documents.unary('decideReview', { reviewId, decision: 'approve', rejectionReasons: [], decidedBy });
  async function read(reviewId: string, documentId: string, reader = A) {
    const parts: documentsV1.ReadReviewFileResponse['part'][] = [];
    for await (const { part } of h.documents.serverStream('readReviewFile', { reviewId, documentId, reader }))
      parts.push(part);
    return parts;
  }

  it('records the verification’s segment, filters by program and segment, oldest or newest first', async () => {
    const other = await newProgram(h);
    const first = await pending();
    const second = await pending(other);
    const third = await pending();
    const decided = await pending();
    await decide(decided.reviewId, 'operator');

    const { review } = await h.documents.unary('getReview', { reviewId: first.reviewId });
    expect(review).toMatchObject({ segment: 'student', claimedBy: '' });
    expect(review!.claimExpiresAt).toBeUndefined();

    const oldest = [first.reviewId, second.reviewId, third.reviewId];
    expect(await listAll({ status: 'pending' })).toEqual(oldest);
    expect(await listAll({ status: 'pending', order: 'oldest' })).toEqual(oldest);
    expect(await listAll({ status: 'pending', order: 'newest' })).toEqual([...oldest].reverse());
    expect(await listAll({ status: 'pending', programId: program.programId })).toEqual([
      first.reviewId,
      third.reviewId,
    ]);
    expect(await listAll({ status: 'pending', programId: program.programId, order: 'newest' })).toEqual([
      third.reviewId,
      first.reviewId,
    ]);
    expect(await listAll({ programId: program.programId })).toEqual([
      first.reviewId,
      third.reviewId,
      decided.reviewId,
    ]);
    expect(await listAll({ status: 'pending', segment: 'student' })).toEqual(oldest);
    expect(await listAll({ status: 'pending', segment: 'military' })).toEqual([]);
    expect(await listAll({ programId: other.programId, segment: 'student' })).toEqual([second.reviewId]);

    // A cursor of one order is not read in the other; filters are checked.
    const page = await list({ status: 'pending', limit: 1, order: 'newest' });
    for (const bad of [
      { cursor: page.nextCursor },
      { programId: 'not-a-program' },
      { segment: 'pirate' },
      { order: 'sideways' },
    ])
      expect((await failure(list(bad))).codeName).toBe('INVALID_ARGUMENT');
  });

  it('keeps a claimed review from other reviewers until the holder releases, decides or the lease runs out', async () => {
    const { reviewId, documents } = await pending();
    const claimed = await claim(reviewId, A);
    expect(claimed.review).toMatchObject({ reviewId, status: 'pending', claimedBy: A });
    const expiresAt = claimed.review!.claimExpiresAt!.getTime();
    expect(expiresAt).toBeGreaterThan(Date.now() + LEASE_MS - 2000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + LEASE_MS);
    // Answered like GetReview: with the files.
    expect(claimed.files.map((f) => f.documentId)).toEqual(documents.map((d) => d.documentId));
    // Listed with the claim.
    expect((await list({ status: 'pending' })).reviews.find((r) => r.reviewId === reviewId)).toMatchObject({
      claimedBy: A,
    });

    // B may neither claim, decide nor release it; the operator neither.
    for (const refused of [
      claim(reviewId, B),
      decide(reviewId, B),
      release(reviewId, B),
      decide(reviewId, 'operator'),
      decide(reviewId, ''),
    ]) {
      const err = await failure(refused);
      expect([err.codeName, err.reason]).toEqual(['FAILED_PRECONDITION', 'reviewClaimed']);
    }

    // A renews: a later end.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const renewed = await claim(reviewId, A);
    expect(renewed.review!.claimExpiresAt!.getTime()).toBeGreaterThan(expiresAt);

    // A releases: B may claim; releasing again (or what nobody holds) answers the review as it is.
    expect((await release(reviewId, A)).review).toMatchObject({ claimedBy: '' });
    expect((await release(reviewId, A)).review).toMatchObject({ claimedBy: '' });
    expect((await claim(reviewId, B)).review).toMatchObject({ claimedBy: B });

    // B's lease runs out: A may claim and decide, which ends the claim.
    const lapsed = await waitFor(
      'the lease to run out',
      async () => {
        const { review } = await h.documents.unary('getReview', { reviewId });
        return review!.claimedBy === '' ? review : undefined;
      },
      LEASE_MS + 5000,
    );
    expect(lapsed!.claimExpiresAt).toBeUndefined();
    await claim(reviewId, A);
    const { review: approved } = await decide(reviewId, A);
    expect(approved).toMatchObject({ status: 'approved', decidedBy: A, claimedBy: '' });
    expect(await h.db('reviews').where({ id: reviewId }).first()).toMatchObject({
      claimed_by: null,
      claim_expires_at: null,
    });

    // Decided: no claim any more; releasing is harmless.
    const late = await failure(claim(reviewId, B));
    expect([late.codeName, late.reason]).toEqual(['FAILED_PRECONDITION', 'alreadyDecided']);
    expect((await release(reviewId, B)).review).toMatchObject({ status: 'approved', claimedBy: '' });
  });

  it('lets one of two reviewers claiming at once have the review', async () => {
    const { reviewId } = await pending();
    const outcomes = await Promise.allSettled([claim(reviewId, A), claim(reviewId, B)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected')!;
    expect((await failure(Promise.reject((refused as PromiseRejectedResult).reason))).reason).toBe(
      'reviewClaimed',
    );
  });

  it('lets a reviewer decide a review nobody holds without claiming it', async () => {
    const { reviewId } = await pending();
    expect((await decide(reviewId, B)).review).toMatchObject({ status: 'approved', decidedBy: B });
  });

  it('refuses claims of malformed holders and unknown reviews', async () => {
    const { reviewId } = await pending();
    for (const holder of ['', 'staff', 'test-mode', 'staff:nope'])
      expect((await failure(claim(reviewId, holder))).codeName).toBe('INVALID_ARGUMENT');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect((await failure(claim(id, A))).codeName).toBe('NOT_FOUND');
      expect((await failure(release(id, A))).codeName).toBe('NOT_FOUND');
    }
  });

  it('streams a review’s file decrypted, in chunks, and records who read it', async () => {
    // Larger than one chunk, so that several follow the description.
    const big = Buffer.concat([PDF, randomBytes(3 * MAX_CHUNK + 1234)]);
    const { reviewId, documents } = await pending(program, [
      file('card.png', 'image/png', PNG),
      file('scan.pdf', 'application/pdf', big),
    ]);
    const [png, pdf] = documents;

    const parts = await read(reviewId, pdf!.documentId, B);
    expect(parts[0]).toEqual({
      $case: 'file',
      file: { documentId: pdf!.documentId, contentType: 'application/pdf', size: big.length },
    });
    const chunks = parts.slice(1).map((p) => (p?.$case === 'chunk' ? p.chunk : Buffer.alloc(0)));
    expect(parts.slice(1).every((p) => p?.$case === 'chunk')).toBe(true);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(MAX_CHUNK);
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
    // At rest it is still ciphertext only.
    for (const { name, bytes } of await rawBytes(h))
      expect(
        `${name}: ${bytes.includes(big.subarray(PDF.length, PDF.length + 64)) ? 'plaintext' : 'ok'}`,
      ).toBe(`${name}: ok`);

    const pngParts = await read(reviewId, png!.documentId, 'operator');
    expect(pngParts[0]).toMatchObject({ file: { contentType: 'image/png', size: PNG.length } });

    const reads = await h.db('file_reads').where({ review_id: reviewId }).orderBy('read_at');
    expect(reads.map((r: { document_id: string; reader: string }) => [r.document_id, r.reader])).toEqual([
      [pdf!.documentId, B],
      [png!.documentId, 'operator'],
    ]);
  });

  it('answers NOT_FOUND for a document that is not one of the review’s stored files, and records nothing', async () => {
    const mine = await pending();
    const theirs = await pending();
    const before = await h.db('file_reads').count<{ count: string }[]>('* as count');
    for (const [reviewId, documentId, message] of [
      [mine.reviewId, theirs.documents[0]!.documentId, 'No such file in this review'],
      [mine.reviewId, '00000000-0000-4000-8000-000000000000', 'No such file in this review'],
      [mine.reviewId, 'nope', 'No such file in this review'],
      ['00000000-0000-4000-8000-000000000000', mine.documents[0]!.documentId, 'Review not found'],
    ]) {
      const err = await failure(read(reviewId!, documentId!));
      expect([err.codeName, err.message]).toEqual(['NOT_FOUND', message]);
    }
    const bad = await failure(read(mine.reviewId, mine.documents[0]!.documentId, 'staff'));
    expect(bad.codeName).toBe('INVALID_ARGUMENT');

    // Retention deleted the files: nothing to read.
    await h.db('reviews').where({ id: mine.reviewId }).update({ files_deleted_at: new Date() });
    const gone = await failure(read(mine.reviewId, mine.documents[0]!.documentId));
    expect([gone.codeName, gone.message]).toEqual([
      'NOT_FOUND',
      'The files of this review were deleted (retention)',
    ]);
    expect(await h.db('file_reads').count<{ count: string }[]>('* as count')).toEqual(before);
  });
});
