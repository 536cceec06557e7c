import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { eventType, topicFor } from '@eligo/runtime';
import { startEligo, tempDataDir, waitReady, type EligoProcess } from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { reportsApi, utcDay } from '../support/reports-api';
import { verificationApi } from '../support/verification-api';

// Issue 18, item 14: `npm start`'s in-process bus must be as durable as Kafka. Verifications are created while
// the reports consumer is stuck (its table locked), so their events sit in the bus, handed over by the outbox
// relay but not handled; a few more right before a kill -9. After a restart on the same data dir every one
// of them reaches reports, and every consumer has seen every event.
const token = `eligo_admin_${'durable'.repeat(5)}`;
let data: ReturnType<typeof tempDataDir>;
let eligo: EligoProcess | undefined;

beforeAll(() => {
  data = tempDataDir();
});

afterAll(async () => {
  await eligo?.stop('SIGKILL');
  // A killed eligo leaves its embedded Postgres (its own process group) running: stop it too.
  const pidFile = join(data.dir, 'postgres', 'postmaster.pid');
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
    } catch {
      // already gone
    }
  }
  data.remove();
});

const start = async (): Promise<EligoProcess> => {
  eligo = await startEligo(['start', '--target', 'all'], {
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ADMIN_TOKEN: token,
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_REPORTS_POLL_MS: '100',
  });
  await waitReady(eligo, 120_000);
  return eligo;
};

/** A session on the embedded Postgres of the data dir (its password and port are kept beside its data). */
async function embeddedDb(): Promise<Client> {
  const { password, port } = JSON.parse(readFileSync(join(data.dir, 'postgres.json'), 'utf8')) as {
    password: string;
    port: number;
  };
  const client = new Client({
    connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
  });
  await client.connect();
  return client;
}

async function number(db: Client, sql: string, params: unknown[] = []): Promise<number> {
  return Number(Object.values((await db.query(sql, params)).rows[0] as object)[0]);
}

async function waitUntil(what: string, condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

it('delivers every event handed to the embedded bus after a kill -9, once to each consumer', async () => {
  const before = await start();
  const api = programsApi({ httpUrl: before.httpUrl, adminToken: token });
  const { accountId } = await api.createAccount('Durable Co');
  const reporter = await api.createToken(accountId, 'reporter', ['REPORTER']);
  const { programId } = await api.createProgram(accountId, { name: 'Durable' });
  const flow = verificationApi(api);

  // The reports consumer gets stuck on its first VerificationCreated: its insert waits for this lock.
  const lock = await embeddedDb();
  await lock.query('begin');
  await lock.query('lock table reports.verification_rows in exclusive mode');
  const ids: string[] = [];
  for (let i = 0; i < 15; i += 1) ids.push((await flow.started(programId)).verificationId);
  await waitUntil(
    'the relay to hand every verification event over',
    async () =>
      (await number(lock, 'select count(*) from verification.outbox where published_at is null')) === 0,
  );
  expect(await number(lock, 'select count(*) from reports.verification_rows')).toBe(0);
  // And a few more right before the kill: their events may be anywhere between outbox and consumer.
  for (let i = 0; i < 5; i += 1) ids.push((await flow.started(programId)).verificationId);
  expect(await before.stop('SIGKILL')).toBeNull();
  await lock.end().catch(() => undefined);

  const after = await start();
  const reports = reportsApi(after, programsApi({ httpUrl: after.httpUrl, adminToken: token }));
  const report = await reports.reportUntil(
    reporter.token,
    { startDate: utcDay(-1), endDate: utcDay(1) },
    (rows) => ids.every((id) => rows.some((r) => r.verificationId === id)),
    'every verification in a report',
    90_000,
  );
  expect(report.rows.map((r) => r.verificationId).sort()).toEqual([...ids].sort());

  const db = await embeddedDb();
  try {
    // Every VerificationCreated reached the reports projection through its inbox (once: its primary key).
    const created = eventType('verification', 'VerificationCreated');
    expect(
      await number(
        db,
        `select count(*) from verification.outbox o join reports.inbox i
           on i.consumer = 'projection' and i.ce_id = (o.headers->>'ce_id')::uuid where o.event_type = $1`,
        [created],
      ),
    ).toBe(ids.length);
    // Every consumer group of the verification topic has consumed everything it holds.
    const groups = (where: string) =>
      number(
        db,
        `select count(*) from eligo_bus.positions p join eligo_bus.topics t on t.name = p.topic
          where t.name = $1 and ${where}`,
        [topicFor('verification')],
      );
    expect(await groups('true')).toBeGreaterThan(0);
    await waitUntil(
      'every consumer to catch up',
      async () => (await groups('p.next_offset < t.next_offset')) === 0,
    );
  } finally {
    await db.end();
  }
  expect(await after.stop('SIGTERM')).toBe(0);
}, 300_000);
