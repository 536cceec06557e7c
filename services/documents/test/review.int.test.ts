import type { TopicRecorder } from '@eligo/local-infra';
import { waitFor } from '@eligo/local-infra';
import { documentsEventsV1 } from '@eligo/proto';
import { parseCloudEventHeaders, type DeliveredMessage } from '@eligo/runtime';
import { PDF, PNG } from './files';
import {
  failure,
  file,
  newProgram,
  startDocuments,
  subscribeDocumentsTopic,
  uploadAll,
  type Harness,
  type TestProgram,
} from './support';

/**
 * The review queue: test-mode decisions from file names, staff decisions through the API, and the events on
 * Kafka that move the verification on (read back as consumers see them, without file names).
 */
describe('document reviews', () => {
  let h: Harness;
  let topic: TopicRecorder;
  let program: TestProgram;
  beforeAll(async () => {
    h = await startDocuments();
    topic = await subscribeDocumentsTopic();
    program = await newProgram(h);
  });
  afterAll(async () => {
    await topic?.stop();
    await h?.stop();
  });

  const D = 'eligo.documents.v1.';
  const typeOf = (m: DeliveredMessage) => parseCloudEventHeaders(m.headers).type;
  /** Exactly the messages of the verification once `count` arrived (a short wait catches extra ones). */
  async function eventsOf(verificationId: string, count: number): Promise<DeliveredMessage[]> {
    await topic.keyed(verificationId, count);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return topic.messages.filter((m) => m.key === verificationId);
  }
  // A distinctive name: finding it in a message can only mean it leaked there.
  const NAME = 'Quillonia_Brambleworth';
  function expectNoFileNames(messages: DeliveredMessage[]) {
    for (const m of messages) {
      const raw = [m.key, m.value.toString('latin1'), JSON.stringify(m.headers)].join('\n');
      expect(raw).not.toContain(NAME);
      expect(raw).not.toContain('.png');
    }
  }
  const submitted = async (name: string) => {
    const upload = await uploadAll(h, program, [
      file(`${NAME}_${name}.png`, 'image/png', PNG),
      file('scan.pdf', 'application/pdf', PDF),
    ]);
    const completed = await h.documents.unary('completeUpload', {
      verificationId: upload.verificationId,
      uploadId: '',
    });
    return { ...upload, ...completed };
  };
  const list = (request: { status: string; limit: number; cursor: string }) =>
    h.documents.unary('listReviews', { programId: '', segment: '', order: '', ...request });
  const verificationStep = (verificationId: string, step: string) =>
    waitFor(`verification ${verificationId} at ${step}`, async () => {
      const { verification } = await h.verification.unary('getVerification', { verificationId });
      return verification!.currentStep === step ? verification : undefined;
    });

  it('approves a test-mode upload whose file name holds ACCEPTED at once', async () => {
    const { verificationId, reviewId, documents, verification } = await submitted('ACCEPTED');
    expect(['pending', 'success']).toContain(verification!.currentStep);
    const { review } = await h.documents.unary('getReview', { reviewId });
    expect(review).toMatchObject({
      status: 'approved',
      decidedBy: 'test-mode',
      testMode: true,
      rejectionReasons: [],
    });

    const messages = await eventsOf(verificationId, 2);
    expect(messages.map(typeOf)).toEqual([`${D}DocumentsSubmitted`, `${D}ReviewCompleted`]);
    for (const m of messages) {
      const ce = parseCloudEventHeaders(m.headers);
      expect([m.key, ce.subject, ce.source]).toEqual([verificationId, verificationId, '/eligo/documents']);
    }
    expect(documentsEventsV1.DocumentsSubmitted.decode(messages[0]!.value)).toMatchObject({
      verificationId,
      reviewId,
      programId: program.programId,
      documentIds: documents.map((d) => d.documentId),
    });
    expect(documentsEventsV1.ReviewCompleted.decode(messages[1]!.value)).toMatchObject({
      verificationId,
      reviewId,
      programId: program.programId,
      approved: true,
      rejectionReasons: [],
      decidedBy: 'test-mode',
    });
    expectNoFileNames(messages);
    // The verification service applies ReviewCompleted from Kafka.
    expect(await verificationStep(verificationId, 'success')).toMatchObject({ rewardCode: 'SAVE10' });
  });

  it('rejects a test-mode upload whose file name holds REJECTED at once (DOCUMENT_UNREADABLE)', async () => {
    const { verificationId, reviewId } = await submitted('REJECTED');
    const [, completed] = await eventsOf(verificationId, 2);
    expect(documentsEventsV1.ReviewCompleted.decode(completed!.value)).toMatchObject({
      reviewId,
      approved: false,
      rejectionReasons: ['DOCUMENT_UNREADABLE'],
      decidedBy: 'test-mode',
    });
    const back = await verificationStep(verificationId, 'docUpload');
    expect(back!.rejectionReasons).toEqual(['DOCUMENT_UNREADABLE']);
  });

  it('leaves other test-mode uploads to staff, who read and approve them', async () => {
    const { verificationId, reviewId, documents } = await submitted('plain');
    const { review, files } = await h.documents.unary('getReview', { reviewId });
    expect(review).toMatchObject({
      status: 'pending',
      decidedBy: '',
      verificationId,
      programId: program.programId,
    });
    expect(review!.decidedAt).toBeUndefined();
    expect(review!.documents.map((d) => [d.fileName, d.status])).toEqual([
      [`${NAME}_plain.png`, 'UPLOADED'],
      ['scan.pdf', 'UPLOADED'],
    ]);
    expect(files.map((f) => f.documentId)).toEqual(documents.map((d) => d.documentId));
    expect(files[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 200_000);
    const downloaded = await Promise.all(
      files.map(async (f) => Buffer.from(await (await fetch(f.url)).arrayBuffer())),
    );
    expect(downloaded[0]!.equals(PNG)).toBe(true);
    expect(downloaded[1]!.equals(PDF)).toBe(true);

    const staff = `staff:${'5a'.repeat(12)}`;
    const { review: approved } = await h.documents.unary('decideReview', {
      reviewId,
      decision: 'approve',
      rejectionReasons: [],
      decidedBy: staff,
    });
    expect(approved).toMatchObject({ status: 'approved', decidedBy: staff });
    expect(approved!.decidedAt).toBeInstanceOf(Date);
    const [, completed] = await eventsOf(verificationId, 2);
    expect(documentsEventsV1.ReviewCompleted.decode(completed!.value)).toMatchObject({
      reviewId,
      approved: true,
      decidedBy: staff,
    });
    await verificationStep(verificationId, 'success');

    const twice = await failure(
      h.documents.unary('decideReview', {
        reviewId,
        decision: 'reject',
        rejectionReasons: ['DOCUMENT_EXPIRED'],
        decidedBy: '',
      }),
    );
    expect([twice.codeName, twice.reason]).toEqual(['FAILED_PRECONDITION', 'alreadyDecided']);
  });

  it('rejects with staff reasons, and refuses bad decisions', async () => {
    const { verificationId, reviewId } = await submitted('other');
    for (const [decision, reasons, decidedBy] of [
      ['reject', [], ''],
      ['reject', ['expired'], ''],
      ['approve', ['DOCUMENT_EXPIRED'], ''],
      ['maybe', [], ''],
      // A decider the gateway would never name: not recorded as anyone.
      ['approve', [], 'staff'],
      ['approve', [], 'staff:someone'],
    ] as const) {
      const err = await failure(
        h.documents.unary('decideReview', { reviewId, decision, rejectionReasons: [...reasons], decidedBy }),
      );
      expect(err.codeName).toBe('INVALID_ARGUMENT');
    }
    const { review } = await h.documents.unary('decideReview', {
      reviewId,
      decision: 'reject',
      rejectionReasons: ['DOCUMENT_EXPIRED', 'MISMATCH_PERSON_FIRST_NAME'],
      decidedBy: 'operator',
    });
    expect(review).toMatchObject({
      status: 'rejected',
      rejectionReasons: ['DOCUMENT_EXPIRED', 'MISMATCH_PERSON_FIRST_NAME'],
      decidedBy: 'operator',
    });
    const [, completed] = await eventsOf(verificationId, 2);
    expect(documentsEventsV1.ReviewCompleted.decode(completed!.value)).toMatchObject({
      approved: false,
      rejectionReasons: ['DOCUMENT_EXPIRED', 'MISMATCH_PERSON_FIRST_NAME'],
      decidedBy: 'operator',
    });
    expectNoFileNames(await eventsOf(verificationId, 2));

    const unknown = await failure(
      h.documents.unary('decideReview', {
        reviewId: '00000000-0000-4000-8000-000000000000',
        decision: 'approve',
        rejectionReasons: [],
        decidedBy: '',
      }),
    );
    expect(unknown.codeName).toBe('NOT_FOUND');
  });

  it('lists the queue by status, oldest first, page by page', async () => {
    // One review of each outcome, whatever the other tests left.
    const approvedId = (await submitted('ACCEPTED')).reviewId;
    const rejectedId = (await submitted('REJECTED')).reviewId;
    const ours = [
      (await submitted('q1')).reviewId,
      (await submitted('q2')).reviewId,
      (await submitted('q3')).reviewId,
    ];
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 100; page += 1) {
      const reply = await list({ status: 'pending', limit: 1, cursor });
      expect(reply.reviews.length).toBeLessThanOrEqual(1);
      seen.push(...reply.reviews.map((r) => r.reviewId));
      for (const r of reply.reviews) expect(r.status).toBe('pending');
      cursor = reply.nextCursor;
      if (cursor === '') break;
    }
    expect(seen.filter((id) => ours.includes(id))).toEqual(ours);
    expect(new Set(seen).size).toBe(seen.length);

    const all = await list({ status: '', limit: 0, cursor: '' });
    const submittedAt = all.reviews.map((r) => r.submittedAt!.getTime());
    expect(submittedAt).toEqual([...submittedAt].sort((a, b) => a - b));
    expect(all.reviews.map((r) => r.reviewId)).toEqual(
      expect.arrayContaining([approvedId, rejectedId, ...ours]),
    );
    for (const status of ['approved', 'rejected'] as const) {
      const page = await list({ status, limit: 100, cursor: '' });
      for (const r of page.reviews) expect(r.status).toBe(status);
      expect(page.reviews.map((r) => r.reviewId)).toContain(status === 'approved' ? approvedId : rejectedId);
    }

    for (const bad of [
      { status: 'open', limit: 0, cursor: '' },
      { status: '', limit: 101, cursor: '' },
      { status: '', limit: 0, cursor: 'garbage' },
    ]) {
      expect((await failure(list(bad))).codeName).toBe('INVALID_ARGUMENT');
    }
  });

  it('answers NOT_FOUND for an unknown or malformed review id', async () => {
    for (const reviewId of ['00000000-0000-4000-8000-000000000000', 'nope', ''])
      expect((await failure(h.documents.unary('getReview', { reviewId }))).codeName).toBe('NOT_FOUND');
  });
});
