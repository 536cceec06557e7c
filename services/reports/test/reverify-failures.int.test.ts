import { randomBytes } from 'node:crypto';
import { createLogger } from '@eligo/runtime';
import type { AppContext } from '../src/app/context';
import { MAX_ITEM_ATTEMPTS, reverifyPendingItems } from '../src/app/reverify';
import { newProgram, startReports, type Harness } from './support';

const hexId = () => randomBytes(12).toString('hex');

/**
 * An item whose verification-service call keeps failing is retried with a growing pause, then ends FAILED so
 * its batch can complete. The job pass runs here against a port that always fails; the module's own job
 * polls once a minute, so it stays out of the way after its first (empty) pass.
 */
describe('bulk re-verification when the verification service keeps failing', () => {
  let h: Harness;
  let app: AppContext;
  beforeAll(async () => {
    h = await startReports({ ELIGO_REPORTS_POLL_MS: '60000' });
    app = {
      db: h.db,
      schema: 'reports',
      store: h.store,
      rawStore: h.store,
      verification: {
        personalInfo: async () => new Map(),
        reverify: async () => {
          throw new Error('the verification service is unavailable');
        },
        locate: async () => undefined,
      },
      programs: { isProgramOf: async () => true },
      logger: createLogger({ level: 'silent' }),
      leaseMs: 60_000,
      retentionMs: 60_000,
      orphanGraceMs: 60_000,
      reportBatchRows: 1000,
      // This suite generates no report.
      reportWorker: { databaseUrl: '', heapMb: 48, masterKey: Buffer.alloc(32), partBytes: 1024 },
      reverify: { maxIds: 10, concurrency: 2 },
    };
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('releases an item for a later try with backoff, and records FAILED after the last try', async () => {
    const program = await newProgram(h);
    const batchId = hexId();
    await h.db('reverify_batches').insert({
      id: batchId,
      account_id: program.accountId,
      program_id: program.programId,
      status: 'PENDING',
      total_records: 2,
    });
    await h.db('reverify_items').insert([
      { batch_id: batchId, position: 1, verification_id: hexId(), attempts: 0 },
      { batch_id: batchId, position: 2, verification_id: hexId(), attempts: MAX_ITEM_ATTEMPTS - 1 },
    ]);
    expect(await reverifyPendingItems(app)).toBe(true);

    const [first, last] = await h.db('reverify_items').where({ batch_id: batchId }).orderBy('position');
    expect(first).toMatchObject({ status: 'PENDING', attempts: 1, lease: null, outcome: null });
    // The first retry waits 5 s.
    expect(first.locked_until.getTime() - Date.now()).toBeGreaterThan(3_000);
    expect(last).toMatchObject({ status: 'DONE', outcome: 'FAILED', error_ids: ['internalServerError'] });
    expect(await h.db('reverify_batches').where({ id: batchId }).first()).toMatchObject({
      status: 'IN_PROGRESS',
      records_processed: 1,
    });
    // Nothing is due: the released item waits for its pause.
    expect(await reverifyPendingItems(app)).toBe(false);
  });
});
