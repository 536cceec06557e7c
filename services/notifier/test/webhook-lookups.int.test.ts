import { createLogger, type Knex } from '@eligo/runtime';
import type { AppContext } from '../src/app/context';
import { onNotification, type NotificationEvent } from '../src/app/notify';
import { programsPort } from '../src/app/ports';
import { newProgram, startSplit, type Harness } from './support';

/**
 * A consumer transaction looks each program's webhook up once for all its events, "no webhook" included;
 * the next transaction looks again, so a webhook configured in between is found. The programs service and
 * Postgres are real; the notifier's context holds what this path uses.
 */
let h: Omit<Harness, 'notifier'>;
let calls: string[];
let ctx: AppContext;

beforeAll(async () => {
  h = await startSplit();
  calls = [];
  const client = h.programs;
  const counting = new Proxy(client, {
    get: (target, key) =>
      key === 'unary'
        ? (method: string, request: unknown) => {
            calls.push(method);
            return (target.unary as (m: string, r: unknown) => Promise<unknown>)(method, request);
          }
        : Reflect.get(target, key),
  });
  ctx = {
    programs: programsPort(counting as Parameters<typeof programsPort>[0], 60_000),
    logger: createLogger({ level: 'silent' }),
  } as unknown as AppContext;
}, 180_000);
afterAll(async () => {
  await h?.stop();
});

const success = (programId: string, accountId: string, i: number): NotificationEvent => ({
  sourceEventId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  type: 'SUCCESS',
  verificationId: String(i).padStart(24, 'f'),
  programId,
  accountId,
  occurredAt: new Date(),
});

/** The events applied in one transaction, as the consumer applies a batch (no delivery is made here). */
const applyInOne = (events: NotificationEvent[]) =>
  h.db.transaction(async (trx: Knex.Transaction) => {
    for (const n of events) await onNotification({ trx, beforeCommit: () => undefined }, ctx, n);
  });

it('looks a program without a webhook up once per transaction, and again in the next', async () => {
  const { programId, accountId } = await newProgram(h.programs);
  const other = await newProgram(h.programs);
  await applyInOne([1, 2, 3, 4, 5].map((i) => success(programId, accountId, i)));
  expect(calls).toEqual(['getWebhookDelivery']);

  calls.length = 0;
  await applyInOne([
    success(programId, accountId, 6),
    success(other.programId, other.accountId, 7),
    success(programId, accountId, 8),
  ]);
  expect(calls).toEqual(['getWebhookDelivery', 'getWebhookDelivery']);

  // One event per transaction: one lookup each ("no webhook" is not kept across transactions).
  calls.length = 0;
  for (const i of [9, 10, 11]) await applyInOne([success(programId, accountId, i)]);
  expect(calls).toHaveLength(3);
});
