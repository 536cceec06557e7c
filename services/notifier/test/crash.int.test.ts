import { notifierV1 } from '@eligo/proto';
import { createClient } from '@eligo/runtime';
import { randomUUID } from 'node:crypto';
import { insertDeliveries, type NewDelivery } from '../src/repository/deliveries.repository';
import { startReceiver, type Receiver } from './receiver';
import {
  deliveryLog,
  flow,
  launchNotifier,
  programWithWebhook,
  startSplit,
  type Harness,
  type NotifierProcess,
} from './support';

/**
 * The retry schedule lives in Postgres: a notifier that dies in the middle of an attempt leaves the delivery
 * leased, and a notifier started later on the same database attempts it again, under the same webhook-id,
 * until the receiver takes it. Programs, organizations and verification run in one process, the notifier in
 * another (a split deployment), so that it can be stopped and replaced on its own.
 */
let h: Omit<Harness, 'notifier'>;
let receiver: Receiver;
const notifiers: NotifierProcess[] = [];
const calls = flow(() => h.verification);

// A 2 s attempt timeout and 1 s dependency deadline make an 8 s lease (2 s + 1 s + 5 s margin).
const NOTIFIER_ENV = {
  ELIGO_WEBHOOK_TIMEOUT_MS: '2000',
  ELIGO_NOTIFIER_DEPENDENCY_DEADLINE_MS: '1000',
  ELIGO_SHUTDOWN_GRACE_MS: '1000',
};

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startSplit();
}, 180_000);
afterAll(async () => {
  for (const n of notifiers) await n.stop().catch(() => undefined);
  await h?.stop();
  await receiver?.close();
});

async function startNotifierProcess(): Promise<NotifierProcess> {
  const n = await launchNotifier(h.sut, NOTIFIER_ENV);
  notifiers.push(n);
  return n;
}

it('delivers exactly one logical delivery (one webhook-id) when the notifier is stopped mid-attempt', async () => {
  const first = await startNotifierProcess();
  const program = await programWithWebhook(h.programs, receiver.url);
  const verificationId = await calls.start(program.programId);
  // A 500, then an attempt the receiver never answers: the notifier is stopped while it is in flight.
  receiver.plan(verificationId, [500, 'hang']);
  await calls.succeed(verificationId);
  await receiver.waitFor(verificationId, 2);
  await first.stop();

  const second = await startNotifierProcess();
  const hooks = await receiver.waitFor(verificationId, 3, 30_000);
  expect(hooks.map((r) => r.answer)).toEqual([500, 'hang', 200]);
  expect(new Set(hooks.map((r) => r.headers['webhook-id'])).size).toBe(1);

  const notifier = createClient(notifierV1.NotifierServiceClient, second.grpcAddress, { deadlineMs: 10_000 });
  try {
    const deadline = Date.now() + 10_000;
    let log = await deliveryLog(notifier, program.programId);
    while (log.deliveries[0]?.status !== notifierV1.DeliveryStatus.DELIVERY_STATUS_DELIVERED) {
      if (Date.now() > deadline) throw new Error(`not delivered: ${JSON.stringify(log)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      log = await deliveryLog(notifier, program.programId);
    }
    // One logical delivery; the attempt cut short by the stop left no record, the two others did.
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]!.webhookId).toBe(hooks[0]!.headers['webhook-id']);
    expect(log.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
  } finally {
    notifier.close();
  }
  const rows = await h
    .db('deliveries')
    .where({ verification_id: verificationId })
    .count<{ count: string }[]>();
  expect(Number(rows[0]!.count)).toBe(1);
}, 90_000);

it('sends what was made while no notifier ran once one starts', async () => {
  const program = await programWithWebhook(h.programs, receiver.url);
  const verificationId = await calls.start(program.programId);
  await calls.succeed(verificationId);
  // No notifier runs now (the previous test stopped its first; stop the second too): the event waits in Kafka.
  for (const n of notifiers.splice(0)) await n.stop();
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(receiver.of(verificationId)).toEqual([]);
  await startNotifierProcess();
  const [hook] = await receiver.waitFor(verificationId, 1, 30_000);
  expect(JSON.parse(hook!.body)).toEqual({ verificationId });
}, 90_000);

it('delivers a backlog made while no notifier ran once each, its deliveries recorded together', async () => {
  for (const n of notifiers.splice(0)) await n.stop();
  const programs = await Promise.all([1, 2, 3].map(() => programWithWebhook(h.programs, receiver.url)));
  const verifications: string[] = [];
  for (const [i, program] of [...programs, ...programs, ...programs].entries()) {
    const verificationId = await calls.start(program.programId);
    if (i % 4 === 1) receiver.plan(verificationId, [500]); // a retry among them
    await calls.succeed(verificationId);
    verifications.push(verificationId);
  }
  await startNotifierProcess();
  for (const verificationId of verifications) await receiver.waitFor(verificationId, 1, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const ids = verifications.map((v) => receiver.of(v).map((r) => r.headers['webhook-id']));
  // Each verification one delivery (one webhook-id, twice for a retried one), none delivered twice.
  expect(ids.map((list) => new Set(list).size)).toEqual(verifications.map(() => 1));
  expect(ids.map((list) => list.length)).toEqual(verifications.map((_, i) => (i % 4 === 1 ? 2 : 1)));
  const rows = await h.db('deliveries').whereIn('verification_id', verifications).select('id');
  expect(rows).toHaveLength(verifications.length);
}, 90_000);

it('records several deliveries with one statement, skipping a disabled endpoint and an event already recorded', async () => {
  const [active, disabled] = ['a', 'd'].map((c) => c.repeat(24));
  await h
    .db('endpoints')
    .insert({ program_id: disabled, account_id: disabled, status: 'disabled', updated_at: new Date() });
  const delivery = (programId: string, sourceEventId: string = randomUUID()): NewDelivery => ({
    id: `msg_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    programId,
    accountId: programId,
    verificationId: 'f'.repeat(24),
    eventType: 'SUCCESS',
    sourceEventId,
    body: '{}',
    eventAt: new Date(),
    createdAt: new Date(),
    nextAttemptAt: new Date(),
    lockedUntil: null,
    refireOf: null,
    traceParent: null,
  });
  const first = delivery(active!);
  const again = delivery(active!, first.sourceEventId);
  const other = delivery(active!);
  const statements: string[] = [];
  const record = (q: { sql: string }) => statements.push(q.sql);
  h.db.on('query', record);
  const created = await insertDeliveries(h.db, [first, delivery(disabled!), again, other]).finally(() =>
    h.db.off('query', record),
  );
  expect(statements).toHaveLength(1);
  expect([...created].sort()).toEqual([first.id, other.id].sort());
  const rows = await h
    .db('deliveries')
    .where({ program_id: active })
    .orderBy('id')
    .select('id', 'status', 'next_attempt_at');
  expect(rows.map((r: { id: string }) => r.id).sort()).toEqual([first.id, other.id].sort());
  expect(rows[0]).toMatchObject({ status: 'pending', next_attempt_at: expect.any(Date) });
  expect(await insertDeliveries(h.db, [])).toEqual(new Set());
});
