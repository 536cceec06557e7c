import { randomUUID } from 'node:crypto';
import { documentsEventsV1, programsProgramV1 } from '@eligo/proto';
import { buildCloudEventHeaders, createKafkaEventBus, topicFor, type EventBus } from '@eligo/runtime';
import { statementsOf, transactionsOf } from '@eligo/local-infra';
import pino from 'pino';
import {
  failure,
  flowCalls,
  importOrganization,
  jane,
  newProgram,
  OfferType,
  startVerification,
  type Harness,
} from './support';

const { ProgramMode } = programsProgramV1;
const STEP = 'collectStudentPersonalInfo';

/**
 * The documents side of the flow as the verification service sees it: the documents service's calls
 * (GetDocUploadContext, RecordDocumentsSubmitted) and its events (DocumentsSubmitted, ReviewCompleted), the
 * latter published on the suite's Kafka exactly as the documents service's outbox relay would.
 */
describe('documents: upload context, submission and review outcomes', () => {
  let h: Harness;
  let bus: EventBus;
  beforeAll(async () => {
    h = await startVerification();
    bus = createKafkaEventBus({
      brokers: h.sut.config.kafka.brokers!,
      clientId: 'verification-documents-it',
      logger: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await bus?.close();
    await h?.stop();
  });

  const { start, submit } = flowCalls(() => h);
  const context = (verificationId: string, docUploadToken = '') =>
    h.client.unary('getDocUploadContext', { verificationId, docUploadToken });
  const record = (verificationId: string, reviewId: string, docUploadToken = '') =>
    h.client
      .unary('recordDocumentsSubmitted', { verificationId, docUploadToken, reviewId })
      .then((r) => r.verification!);
  const read = async (verificationId: string) =>
    (await h.client.unary('getVerification', { verificationId })).verification!;

  /** A student of a catalog university, accepted by `programId`. */
  const student = async (programId: string, extra: Parameters<typeof jane>[0] = {}) => {
    const id = await importOrganization(h, programId, 'Documents University');
    return jane({ organization: { id, name: 'Documents University' }, ...extra });
  };

  /** A verification of a new program waiting for documents (test mode: firstName UPLOAD). */
  async function atDocUpload(overrides: Partial<programsProgramV1.Program> = {}) {
    const program = await newProgram(h.programs, overrides);
    const started = await start(program.programId);
    const vr = await submit(
      started.verificationId,
      STEP,
      await student(program.programId, { firstName: 'UPLOAD' }),
    );
    expect(vr.currentStep).toBe('docUpload');
    return { program, vr };
  }

  /** A verification at docUpload, a new review id, and the DocumentsSubmitted that queues that review. */
  async function submissionOfNewReview() {
    const { vr } = await atDocUpload();
    const reviewId = randomUUID();
    const payload = documentsEventsV1.DocumentsSubmitted.encode(
      documentsEventsV1.DocumentsSubmitted.create({ verificationId: vr.verificationId, reviewId }),
    ).finish();
    return { vr, reviewId, payload };
  }

  async function publish(
    eventName: 'DocumentsSubmitted' | 'ReviewCompleted',
    payload: Uint8Array,
    key: string,
  ) {
    const headers = buildCloudEventHeaders({ service: 'documents', eventName, subject: key });
    await bus.publish([{ topic: topicFor('documents'), key, value: Buffer.from(payload), headers }]);
    return headers;
  }
  const reviewCompleted = (
    verificationId: string,
    reviewId: string,
    approved: boolean,
    reasons: string[] = [],
  ) =>
    publish(
      'ReviewCompleted',
      documentsEventsV1.ReviewCompleted.encode(
        documentsEventsV1.ReviewCompleted.create({
          verificationId,
          reviewId,
          approved,
          rejectionReasons: reasons,
          decidedBy: 'staff',
        }),
      ).finish(),
      verificationId,
    );

  async function until(verificationId: string, step: string) {
    for (let waited = 0; waited < 20_000; waited += 100) {
      const reply = await h.client.unary('getVerificationAdmin', { verificationId });
      if (reply.verification!.currentStep === step) return reply.verification!;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${verificationId} did not reach ${step}`);
  }

  it('docUpload carries an attempt token; the context names the program, mode and review limit', async () => {
    const { program, vr } = await atDocUpload();
    expect(vr.docUploadToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const ctx = await context(vr.verificationId, vr.docUploadToken);
    expect(ctx).toMatchObject({
      programId: program.programId,
      accountId: program.accountId,
      testMode: true,
      rejectionCount: 0,
      maxRejections: 3,
    });
    expect(ctx.verification!.currentStep).toBe('docUpload');
    // The form without the token is accepted too.
    expect((await context(vr.verificationId)).verification!.verificationId).toBe(vr.verificationId);
  });

  it('refuses a wrong token (404), another step (400 invalidStep) and an unknown verification (404)', async () => {
    const { vr } = await atDocUpload();
    const wrong = await failure(context(vr.verificationId, 'A'.repeat(22)));
    expect(wrong).toMatchObject({ codeName: 'NOT_FOUND', errorIds: ['noVerification'] });
    const program = await newProgram(h.programs);
    const collecting = await start(program.programId);
    const step = await failure(context(collecting.verificationId));
    expect(step).toMatchObject({
      codeName: 'FAILED_PRECONDITION',
      errorIds: ['invalidStep'],
    });
    const unknown = await failure(context('0123456789abcdef01234567'));
    expect(unknown).toMatchObject({ codeName: 'NOT_FOUND', errorIds: ['noVerification'] });
  });

  it('answers the upload context without waiting for the verification row lock', async () => {
    const { vr } = await atDocUpload();
    // Another transaction holds the row (a submission, a staff action) for as long as the test likes.
    const holder = await h.db.transaction();
    try {
      await holder('verifications').where({ id: vr.verificationId }).forUpdate().first();
      const answered = await Promise.race([
        context(vr.verificationId, vr.docUploadToken).then((c) => c.verification!.currentStep),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
      ]);
      expect(answered).toBe('docUpload');
    } finally {
      await holder.rollback();
    }
  });

  it('refuses the upload context of a verification past its time (expiredVerification)', async () => {
    const { vr } = await atDocUpload();
    await h
      .db('verifications')
      .where({ id: vr.verificationId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(await failure(context(vr.verificationId, vr.docUploadToken))).toMatchObject({
      codeName: 'FAILED_PRECONDITION',
      errorIds: ['expiredVerification'],
    });
  });

  it('a submission moves docUpload to pending once per review; another review while pending is invalidStep', async () => {
    const { vr } = await atDocUpload({
      documentReview: { maxRejections: 3, maxReviewTime: '20_MIN', estimatedReviewTime: 'A_HALF_HOUR' },
    });
    const reviewId = randomUUID();
    const pending = await record(vr.verificationId, reviewId, vr.docUploadToken);
    expect(pending).toMatchObject({
      currentStep: 'pending',
      errorIds: [],
      maxReviewTime: '20_MIN',
      estimatedReviewTime: 'A_HALF_HOUR',
      docUploadToken: '',
    });
    expect(await record(vr.verificationId, reviewId)).toEqual(pending);
    const other = await failure(record(vr.verificationId, randomUUID()));
    expect(other).toMatchObject({ errorIds: ['invalidStep'] });
    expect((await read(vr.verificationId)).currentStep).toBe('pending');
    const { steps } = (await h.client.unary('getVerificationAdmin', { verificationId: vr.verificationId }))
      .verification!;
    expect(steps.filter((s) => s.trigger === 'uploadDocuments')).toHaveLength(1);
  });

  /**
   * Until a one-statement write of the verification module waits for a row lock (10 s at most), in this
   * suite's database (the other suites running meanwhile have their own).
   */
  async function waitedForTheRow() {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const { rows } = await h.db.raw<{ rows: unknown[] }>(
        `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
            and query like 'with "change" as%'`,
      );
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no write waited for the row');
  }

  it('records a submission with one read and one write: no transaction, no lock', async () => {
    const { vr } = await atDocUpload();
    const reviewId = randomUUID();
    let pending: Awaited<ReturnType<typeof record>> | undefined;
    const sent = await statementsOf('verification', async () => {
      pending = await record(vr.verificationId, reviewId, vr.docUploadToken);
    });
    expect(pending!.currentStep).toBe('pending');
    const transactions = transactionsOf(sent, vr.verificationId);
    expect(transactions).toEqual([
      [expect.stringMatching(/xmin::text as version from "verifications"/)],
      [expect.stringMatching(/^with "change" as \(update "verifications"/)],
    ]);
    expect(sent.filter((s) => s.values.includes(vr.verificationId)).every((s) => s.prepared)).toBe(true);
  });

  it('records a submission whose row changed after the read under the lock, once', async () => {
    const { vr } = await atDocUpload();
    const reviewId = randomUUID();
    const stepEvents = async () =>
      (await h.db('outbox').where({ key: vr.verificationId }).select('event_type')).filter(
        (e: { event_type: string }) => e.event_type.endsWith('StepChanged'),
      ).length;
    const before = await stepEvents();
    // The one-statement write waits behind a transaction that changes the row meanwhile (still docUpload):
    // the row is no longer the version read, so nothing is written and the call takes the locked way.
    const holder = await h.db.transaction();
    await holder('verifications').where({ id: vr.verificationId }).forUpdate().first();
    await holder('verifications').where({ id: vr.verificationId }).update({ last_request_id: null });
    let answer: Awaited<ReturnType<typeof record>> | undefined;
    const sent = await statementsOf('verification', async () => {
      const answered = record(vr.verificationId, reviewId, vr.docUploadToken);
      try {
        await waitedForTheRow();
      } finally {
        await holder.commit();
      }
      answer = await answered;
    });
    expect(answer!.currentStep).toBe('pending');
    // The read, the write that found another version, then the locked transaction.
    const transactions = transactionsOf(sent, vr.verificationId);
    expect(transactions.map((t) => (t.length === 1 ? t[0]!.slice(0, 20) : [t[0], t.at(-1)]))).toEqual([
      expect.stringMatching(/^select/),
      'with "change" as (up',
      ['BEGIN', 'COMMIT'],
    ]);
    const { steps } = (await h.client.unary('getVerificationAdmin', { verificationId: vr.verificationId }))
      .verification!;
    expect(steps.filter((s) => s.trigger === 'uploadDocuments')).toHaveLength(1);
    expect(await stepEvents()).toBe(before + 1);
  });

  it('the DocumentsSubmitted event alone moves the verification to pending, once', async () => {
    const { vr, reviewId, payload } = await submissionOfNewReview();
    await publish('DocumentsSubmitted', payload, vr.verificationId);
    await publish('DocumentsSubmitted', payload, vr.verificationId); // a redelivery with a new ce_id
    await until(vr.verificationId, 'pending');
    // The documents service's call after its crash finds the change made.
    expect((await record(vr.verificationId, reviewId)).currentStep).toBe('pending');
    const admin = await h.client.unary('getVerificationAdmin', { verificationId: vr.verificationId });
    expect(admin.verification!.steps.filter((s) => s.step === 'pending')).toHaveLength(1);
  });

  /** documents-reviews' messages with this outcome so far, from the process's metrics. */
  async function reviewsConsumed(outcome: 'applied' | 'ignored'): Promise<number> {
    const metrics = await (await fetch(`${h.sut.httpUrl}/metrics`)).text();
    const line = new RegExp(
      `^eligo_event_consumer_messages_total\\{[^}]*consumer="documents-reviews"[^}]*outcome="${outcome}"[^}]*\\} (\\d+)`,
      'm',
    ).exec(metrics);
    return Number(line?.[1] ?? 0);
  }

  it('lets the DocumentsSubmitted of a submission this process recorded pass without a transaction', async () => {
    const { vr, reviewId, payload } = await submissionOfNewReview();
    await record(vr.verificationId, reviewId);
    const ignoredBefore = await reviewsConsumed('ignored');
    // Another transaction holds the row (a submission, a staff action) for as long as the test likes.
    const holder = await h.db.transaction();
    try {
      await holder('verifications').where({ id: vr.verificationId }).forUpdate().first();
      const { ce_id } = await publish('DocumentsSubmitted', payload, vr.verificationId);
      let ignored = false;
      for (let waited = 0; waited < 15_000 && !ignored; waited += 100) {
        ignored = (await reviewsConsumed('ignored')) > ignoredBefore;
        if (!ignored) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ignored).toBe(true);
      // Passed over: no inbox row, so no transaction.
      expect(await h.db('inbox').where({ ce_id }).first()).toBeUndefined();
    } finally {
      await holder.rollback();
    }
    expect((await read(vr.verificationId)).currentStep).toBe('pending');
  });

  it('takes a DocumentsSubmitted applied already (by an earlier delivery) without waiting for the row lock', async () => {
    const { vr, reviewId, payload } = await submissionOfNewReview();
    // Applied by the event, not by this process's call: the next delivery is not known to change nothing.
    await publish('DocumentsSubmitted', payload, vr.verificationId);
    await until(vr.verificationId, 'pending');
    const holder = await h.db.transaction();
    try {
      await holder('verifications').where({ id: vr.verificationId }).forUpdate().first();
      // A redelivery with a new ce_id, as a relay that crashed after sending it would publish.
      const { ce_id } = await publish('DocumentsSubmitted', payload, vr.verificationId);
      // Handled (its inbox row committed) while the row is still held: it never asked for the lock.
      let seen = false;
      for (let waited = 0; waited < 15_000 && !seen; waited += 100) {
        seen = (await h.db('inbox').where({ ce_id }).first()) !== undefined;
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen).toBe(true);
    } finally {
      await holder.rollback();
    }
    const admin = await h.client.unary('getVerificationAdmin', { verificationId: vr.verificationId });
    expect(admin.verification!.steps.filter((s) => s.step === 'pending')).toHaveLength(1);
  });

  it('an approved review ends in success with the reward, verified manually', async () => {
    const { program, vr } = await atDocUpload();
    const reviewId = randomUUID();
    await record(vr.verificationId, reviewId);
    await reviewCompleted(vr.verificationId, reviewId, true);
    await until(vr.verificationId, 'success');
    const done = await read(vr.verificationId);
    expect(done).toMatchObject({ currentStep: 'success', rewardCode: 'SAVE10' });
    const details = await h.client.unary('getVerificationDetails', {
      accountId: program.accountId,
      verificationId: vr.verificationId,
    });
    expect(details.details!.verificationMethod).toBe('MANUAL');
    // The documents service's retried call after the decision answers the state as it now is.
    expect((await record(vr.verificationId, reviewId)).currentStep).toBe('success');
  });

  it('live: an approval claims a pool code; an empty pool ends in error instead of retrying forever', async () => {
    const program = await newProgram(h.programs, {
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      offerType: OfferType.OFFER_TYPE_REWARD_POOL,
      rewardCode: undefined,
    });
    await h.programs.unary('addRewardCodes', { programId: program.programId, codes: ['POOL-1'] });
    // Both reach docUpload while the pool still has its code (live student programs review documents).
    const waiting = [];
    for (const email of ['first@example.com', 'second@example.com']) {
      const started = await start(program.programId);
      const vr = await submit(started.verificationId, STEP, await student(program.programId, { email }));
      expect(vr.currentStep).toBe('docUpload');
      const reviewId = randomUUID();
      await record(vr.verificationId, reviewId);
      waiting.push({ id: vr.verificationId, reviewId });
    }
    const [first, second] = waiting as [(typeof waiting)[0], (typeof waiting)[0]];
    await reviewCompleted(first.id, first.reviewId, true);
    await until(first.id, 'success');
    expect((await read(first.id)).rewardCode).toBe('POOL-1');
    await reviewCompleted(second.id, second.reviewId, true);
    const ended = await until(second.id, 'error');
    expect(ended.steps.at(-1)!.errorIds).toEqual(['noRemainingRewardCodes']);
  });

  it('an approval past the person limit ends in error (verificationLimitExceeded), without a reward', async () => {
    const program = await newProgram(h.programs, { verificationLimit: { quantity: 1, days: 30 } });
    // One person opens two verifications and reaches review on both before either succeeds.
    const person = await student(program.programId, { firstName: 'UPLOAD' });
    const waiting = [];
    for (let i = 0; i < 2; i++) {
      const started = await start(program.programId);
      const vr = await submit(started.verificationId, STEP, person);
      expect(vr.currentStep).toBe('docUpload');
      const reviewId = randomUUID();
      expect((await record(vr.verificationId, reviewId)).currentStep).toBe('pending');
      waiting.push({ id: vr.verificationId, reviewId });
    }
    const [first, second] = waiting as [(typeof waiting)[0], (typeof waiting)[0]];
    await reviewCompleted(first.id, first.reviewId, true);
    await until(first.id, 'success');
    await reviewCompleted(second.id, second.reviewId, true);
    const ended = await until(second.id, 'error');
    expect(ended.steps.at(-1)).toMatchObject({
      previousStep: 'pending',
      trigger: 'reviewCompleted',
      errorIds: ['verificationLimitExceeded'],
    });
    expect(await failure(read(second.id))).toMatchObject({
      codeName: 'RESOURCE_EXHAUSTED',
      errorIds: ['verificationLimitExceeded'],
    });
    const stored = await h.db('verifications').where({ id: second.id }).first();
    expect([stored.reward_code, stored.succeeded_at, stored.verification_method]).toEqual([null, null, null]);
    expect((await read(first.id)).rewardCode).toBe('SAVE10');
  });

  it('rejections return to docUpload with reasons and a new token, until the limit ends it (429)', async () => {
    const { vr } = await atDocUpload({
      documentReview: { maxRejections: 2, maxReviewTime: '', estimatedReviewTime: '' },
    });
    const id = vr.verificationId;
    const firstReview = randomUUID();
    await record(id, firstReview, vr.docUploadToken);
    await reviewCompleted(id, firstReview, false, ['DOCUMENT_UNREADABLE']);
    await until(id, 'docUpload');
    const again = await read(id);
    expect(again).toMatchObject({ currentStep: 'docUpload', rejectionReasons: ['DOCUMENT_UNREADABLE'] });
    expect(again.docUploadToken).not.toBe(vr.docUploadToken);
    // The first attempt's form no longer takes files; the new one does.
    expect(await failure(context(id, vr.docUploadToken))).toMatchObject({ codeName: 'NOT_FOUND' });
    expect((await context(id, again.docUploadToken)).rejectionCount).toBe(1);
    // A decision on the old review again changes nothing.
    await reviewCompleted(id, firstReview, false, ['DOCUMENT_EXPIRED']);

    const secondReview = randomUUID();
    await record(id, secondReview, again.docUploadToken);
    await reviewCompleted(id, secondReview, false, ['DOCUMENT_EXPIRED']);
    const ended = await until(id, 'error');
    expect(ended.steps.at(-1)!.errorIds).toEqual(['docReviewLimitExceeded']);
    expect(await failure(read(id))).toMatchObject({
      codeName: 'RESOURCE_EXHAUSTED',
      errorIds: ['docReviewLimitExceeded'],
    });
    expect(await failure(context(id))).toMatchObject({
      codeName: 'RESOURCE_EXHAUSTED',
      errorIds: ['docReviewLimitExceeded'],
    });
    const stored = await h.db('verifications').where({ id }).first();
    expect(stored.doc_upload_rejection_count).toBe(2);
    expect(stored.doc_upload_rejection_reasons).toEqual(['DOCUMENT_EXPIRED']);
  });
});
