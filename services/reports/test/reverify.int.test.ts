import { randomBytes, randomUUID } from 'node:crypto';
import { status as Status } from '@grpc/grpc-js';
import {
  BatchStatus,
  download,
  eventually,
  failure,
  finished,
  newProgram,
  person,
  ReportStatus,
  rowsOf,
  startReports,
  verify,
  type Harness,
  type Program,
} from './support';

const hexId = () => randomBytes(12).toString('hex');

/** Bulk re-verification: the job, its counts, its report, and taking over items of a process that died. */
describe('bulk re-verification', () => {
  let h: Harness;
  let offer: Program;

  const start = (verificationIds: string[], program = offer) =>
    h.reports.unary('startReverification', {
      accountId: program.accountId,
      programId: program.programId,
      verificationIds,
    });
  const complete = (batchId: string) =>
    eventually(async () => {
      const { batch } = await h.reports.unary('getReverification', { accountId: offer.accountId, batchId });
      return batch!.status === BatchStatus.BATCH_STATUS_COMPLETE ? batch! : undefined;
    });

  beforeAll(async () => {
    // A short lease: items claimed by a "dead" process are taken over within the test.
    h = await startReports({ ELIGO_REPORTS_LEASE_MS: '1000' });
    offer = await newProgram(h);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('re-runs the instant match of each verification and reports every id once, in request order', async () => {
    const eligible = await verify(h, offer);
    const review = await verify(h, offer, { subject: person({ firstName: 'REJECTED' }) });
    const foreign = await verify(h, await newProgram(h));
    const unknown = hexId();
    const ids = [eligible.verificationId, review.verificationId, foreign.verificationId, unknown];
    const { batch } = await start([...ids, eligible.verificationId]);
    expect(batch).toMatchObject({
      programId: offer.programId,
      totalRecords: 4,
      recordsProcessed: 0,
      status: BatchStatus.BATCH_STATUS_PENDING,
    });
    const done = await complete(batch!.batchId);
    expect(done).toMatchObject({ totalRecords: 4, recordsProcessed: 4 });

    const { report } = await h.reports.unary('createReverifyReport', {
      accountId: offer.accountId,
      batchId: batch!.batchId,
    });
    expect((await finished(h, offer.accountId, report!.reportId)).status).toBe(
      ReportStatus.REPORT_STATUS_COMPLETE,
    );
    const rows = rowsOf((await download(h, offer.accountId, report!.reportId)).csv);
    expect(rows.map((r) => [r.verificationId, r.reverifyOutcome])).toEqual([
      [eligible.verificationId, 'ELIGIBLE'],
      [review.verificationId, 'NEEDS_REVIEW'],
      [foreign.verificationId, 'NOT_FOUND'],
      [unknown, 'NOT_FOUND'],
    ]);
    expect(rows.every((r) => r.batchId === batch!.batchId && r.processed !== '')).toBe(true);
  });

  it("refuses another account's program, an empty or malformed list, and hides other accounts' batches", async () => {
    const stranger = await newProgram(h);
    expect(
      await failure(
        h.reports.unary('startReverification', {
          accountId: offer.accountId,
          programId: stranger.programId,
          verificationIds: [hexId()],
        }),
      ),
    ).toMatchObject({ code: Status.NOT_FOUND, errorIds: ['noProgram'] });
    expect(await failure(start([]))).toMatchObject({
      code: Status.INVALID_ARGUMENT,
      errorIds: ['invalidRequest'],
    });
    expect(await failure(start(['not-an-id']))).toMatchObject({ code: Status.INVALID_ARGUMENT });
    const { batch } = await start([hexId()]);
    expect(
      await failure(
        h.reports.unary('getReverification', { accountId: stranger.accountId, batchId: batch!.batchId }),
      ),
    ).toMatchObject({ code: Status.NOT_FOUND });
    expect(
      await failure(
        h.reports.unary('createReverifyReport', { accountId: stranger.accountId, batchId: batch!.batchId }),
      ),
    ).toMatchObject({ code: Status.NOT_FOUND });
  });

  it('takes over the items a dead process had claimed, once its lease lapses, and counts each once', async () => {
    const ids = await Promise.all([verify(h, offer), verify(h, offer), verify(h, offer)]);
    // Stop the job from racing the "dead process": insert the batch with its items already claimed.
    const batchId = hexId();
    await h.db.transaction(async (trx) => {
      await trx('reverify_batches').insert({
        id: batchId,
        account_id: offer.accountId,
        program_id: offer.programId,
        status: 'IN_PROGRESS',
        total_records: 3,
      });
      await trx('reverify_items').insert(
        ids.map((v, i) => ({
          batch_id: batchId,
          position: i + 1,
          verification_id: v.verificationId,
          lease: randomUUID(),
          locked_until: new Date(Date.now() + 1500),
        })),
      );
    });
    const lapsedAt = Date.now() + 1500;
    const done = await complete(batchId);
    expect(Date.now()).toBeGreaterThanOrEqual(lapsedAt);
    expect(done).toMatchObject({ totalRecords: 3, recordsProcessed: 3 });
    const items = await h.db('reverify_items').where({ batch_id: batchId }).orderBy('position');
    expect(items.map((i) => [i.status, i.outcome])).toEqual([
      ['DONE', 'ELIGIBLE'],
      ['DONE', 'ELIGIBLE'],
      ['DONE', 'ELIGIBLE'],
    ]);
  });
});
