import { randomBytes } from 'node:crypto';
import {
  freshDatabase,
  realServersEnv,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { reportsApi } from '../support/reports-api';
import { verificationApi } from '../support/verification-api';

// A bulk re-verification outlives the process running it: `eligo start --target all` is killed (SIGKILL, no
// drain) in the middle of a batch, a new process on the same database and Kafka groups takes the batch over
// once the dead one's claims lapse, and the batch ends with every id processed exactly once.
const adminToken = `eligo_admin_${randomBytes(18).toString('hex')}`;
const REAL = 20;
const UNKNOWN = 1500;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let data: ReturnType<typeof tempDataDir>;
const procs: EligoProcess[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  data = tempDataDir();
});

afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL').catch(() => undefined);
  await db?.drop();
  data?.remove();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('resumes a re-verification batch after the process is killed mid-batch, each id done once', async () => {
  // One process's env for both: the same database, encryption key, Kafka group prefix and bucket.
  const env = {
    ...realServersEnv(db.url),
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ADMIN_TOKEN: adminToken,
    ELIGO_ORGANIZATIONS_SEED: 'none',
    // One item at a time, so the batch is still running when the test looks; short claims, so the next
    // process does not wait a minute for the items the dead one held.
    ELIGO_REPORTS_REVERIFY_CONCURRENCY: '1',
    ELIGO_REPORTS_LEASE_MS: '2000',
    ELIGO_REPORTS_POLL_MS: '100',
  };
  const first = await startEligo(['start', '--target', 'all'], env);
  procs.push(first);
  await waitReady(first, 60_000);

  const api = programsApi({ httpUrl: first.httpUrl, adminToken });
  const flow = verificationApi(api);
  const { accountId } = await api.createAccount('Resume Co');
  const token = (await api.createToken(accountId, 'ops', ['BULK_VERIFIER', 'REPORTER'])).token;
  // A test-mode age program: any first name but the triggers succeeds, and no catalog is needed.
  const { programId } = await api.createProgram(accountId, { name: 'Resume', segment: 'age' });
  const real: string[] = [];
  for (let i = 0; i < REAL; i++) {
    const res = await flow.submitToProgram(
      programId,
      'Age',
      {
        firstName: 'Ada',
        lastName: `Lovelace${String.fromCharCode(97 + i)}`,
        birthDate: '1990-12-10',
        postalCode: '94105',
        email: `ada.${i}@example.test`,
      },
      `resume-${i}`,
    );
    expect(`${res.status} ${res.body.currentStep}`).toBe('200 success');
    real.push(res.body.verificationId);
  }
  // Ids nobody issued, each still a call to the verification service (NOT_FOUND); the real ones spread
  // through the batch, so that some come after the kill.
  const unknown = new Set<string>();
  while (unknown.size < UNKNOWN) unknown.add(randomBytes(12).toString('hex'));
  const ids = [...unknown];
  const every = Math.floor(ids.length / REAL);
  real.forEach((id, i) => ids.splice(i * (every + 1) + every, 0, id));
  expect(new Set(ids).size).toBe(REAL + UNKNOWN);

  const started = await reportsApi(first, api).reverify(token, { programId, verificationIds: ids });
  expect(started.status).toBe(202);
  const { statusUrl, reportUrl } = started.body as { statusUrl: string; reportUrl: string };

  // Killed as soon as some, not all, items are done.
  const firstReports = reportsApi(first, api);
  let atKill = 0;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await firstReports.follow('GET', statusUrl, { token });
    expect(status.status).toBe(200);
    const { recordsProcessed, totalRecords } = status.body as {
      recordsProcessed: number;
      totalRecords: number;
    };
    expect(totalRecords).toBe(ids.length);
    if (recordsProcessed === totalRecords)
      throw new Error('the batch finished before the process could be killed; give it more ids');
    if (recordsProcessed > 0) {
      atKill = recordsProcessed;
      break;
    }
    if (Date.now() > deadline) throw new Error(`no item processed after 60 s:\n${first.output()}`);
    await sleep(20);
  }
  expect(await first.stop('SIGKILL')).toBeNull();

  const second = await startEligo(['start', '--target', 'all'], env);
  procs.push(second);
  // Its consumers wait for Kafka to drop the dead process from their groups (the session timeout).
  await waitReady(second, 90_000);
  const api2 = programsApi({ httpUrl: second.httpUrl, adminToken });
  const reports = reportsApi(second, api2);
  const seen: { recordsProcessed: number; totalRecords: number }[] = [];
  const done = await reports.waitBatchComplete(token, statusUrl, 120_000, (b) => seen.push(b));
  expect(done).toMatchObject({ status: 'COMPLETE', totalRecords: ids.length, recordsProcessed: ids.length });
  // What the killed process had done was kept, and the count never went past the total or back.
  const counts = seen.map((b) => b.recordsProcessed);
  expect(counts[0]).toBeGreaterThanOrEqual(atKill);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
  for (const b of seen) expect(b.totalRecords).toBe(ids.length);

  // The batch's report: every id once, in the order asked for, each with its outcome.
  const reportRequest = await reports.follow('POST', reportUrl, { token });
  expect(reportRequest.status).toBe(202);
  await reports.waitComplete(token, reportRequest.body.id, 120_000);
  const { rows } = await reports.fetchCsv(token, reportRequest.body.id);
  expect(rows.map((r) => r.verificationId)).toEqual(ids);
  const realIds = new Set(real);
  const outcomes = rows.map((r) => [r.verificationId, r.reverifyOutcome]);
  expect(outcomes).toEqual(ids.map((id) => [id, realIds.has(id) ? 'ELIGIBLE' : 'NOT_FOUND']));
  for (const row of rows) expect(row.processed).not.toBe('');

  expect(await second.stop('SIGTERM')).toBe(0);
}, 300_000);
