import type { Knex } from 'knex';
import { topicFor } from '../../src/events/cloudevents';
import type { EventCounter } from '../../src/events/counters';
import type { EventBus, Subscription } from '../../src/events/event-bus';
import { createEventConsumer } from '../../src/events/event-consumer';
import { createInProcessEventBus } from '../../src/events/in-process-bus';
import { OutboxRelay } from '../../src/events/outbox-relay';
import { createPostgresBusLog, type PostgresBusLogOptions } from '../../src/events/postgres-bus-log';
import {
  count,
  createEventSchema,
  dropSchema,
  randomName,
  testDb,
  testInfra,
  testLogger,
  waitFor,
} from './helpers';
import { effectHandlers, enqueueScenario, expectAppliedExactlyOnceInOrder, scenarioKeys } from './scenario';

// The embedded default's bus keeps its log and positions in Postgres: what the outbox relay handed over
// survives the process (issue 18, item 14). A "crash" here is a bus and relay left as they are, without any
// stop, and a new bus on the same database, as a restarted process would build it.
const infra = testInfra();
const logger = testLogger();
const stops: (() => Promise<unknown>)[] = [];
let db: Knex;
const busSchemas: string[] = [];

function durableBus(schema: string, options: Partial<PostgresBusLogOptions> = {}): EventBus {
  const log = createPostgresBusLog({ url: infra.databaseUrl, schema, logger, ...options });
  return createInProcessEventBus({ logger, handlerRetry: { initialMs: 5, maxMs: 50 }, log });
}

/** A handler that never returns (until `unstick` makes it fail), like a consumer stuck on a slow call. */
function stuckGate(): { stuck: Promise<never>; unstick(): void } {
  let unstick!: () => void;
  const stuck = new Promise<never>((_, reject) => {
    unstick = () => reject(new Error('unstuck at the end of the test'));
  });
  stuck.catch(() => undefined);
  return { stuck, unstick };
}

/**
 * The bus as a consumer sees it, whose handler gets stuck after `passing` messages were handled (one at a
 * time: without its batch handler, so that it stops after exactly that many).
 */
function stallingAfter(bus: EventBus, passing: number, stuck: Promise<never>): EventBus {
  let handled = 0;
  return {
    ...bus,
    subscribe: (options) =>
      bus.subscribe({
        ...options,
        batchHandler: undefined,
        handler: async (message) => {
          if (handled >= passing) await stuck;
          await options.handler(message);
          handled += 1;
        },
      }),
  };
}

beforeAll(() => {
  db = testDb(infra.databaseUrl);
});

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  for (const schema of busSchemas) await dropSchema(db, schema);
  await db?.destroy();
});

const newBusSchema = (): string => {
  const schema = randomName('bus_');
  busSchemas.push(schema);
  return schema;
};

describe('in-process bus on its Postgres log', () => {
  it('lets a consumer resume after a crash with events in flight, each event applied once', async () => {
    const service = randomName('svc');
    const schema = randomName('events_');
    const topic = topicFor(service);
    const keys = scenarioKeys(3);
    const perKey = 10;
    const total = keys.length * perKey;
    const before = 5;
    const totals = new Map<string, number>();
    const onCount: EventCounter = (name, _labels, value) => totals.set(name, (totals.get(name) ?? 0) + value);
    await createEventSchema(db, schema);
    stops.push(() => dropSchema(db, schema));
    const busSchema = newBusSchema();
    const consume = (bus: EventBus): Promise<Subscription> =>
      createEventConsumer({
        bus,
        db,
        schema,
        name: 'effects',
        topics: [topic],
        handlers: effectHandlers(service, schema),
        logger,
        onCount,
      });

    // The process before the crash: the relay hands every event over, the consumer gets stuck after five.
    const first = durableBus(busSchema);
    const gate = stuckGate();
    await first.ensureTopics([topic]);
    const relay = new OutboxRelay({ db, schema, bus: first, logger, pollIntervalMs: 200 });
    await relay.start();
    await consume(stallingAfter(first, before, gate.stuck));
    // Stopped at the end only: a crashed process neither stops its relay nor its bus.
    stops.push(async () => {
      const closing = first.close();
      gate.unstick();
      await closing;
      await relay.stop();
    });
    await enqueueScenario(db, schema, service, keys, perKey, 0);
    await waitFor(
      'the relay to hand every event over',
      async () => (await count(db, schema, 'outbox', (q) => q.whereNull('published_at'))) === 0,
    );
    await waitFor('the consumer to get stuck', async () => (await count(db, schema, 'effects')) === before);

    // The restarted process: a new bus on the same database, a consumer of the same group.
    const second = durableBus(busSchema);
    stops.push(() => second.close());
    await second.ensureTopics([topic]);
    const appliedBefore = totals.get('inbox_applied') ?? 0;
    const subscription = await consume(second);
    stops.push(() => subscription.stop());
    await waitFor('every event to be applied', async () => (await count(db, schema, 'effects')) >= total);

    await expectAppliedExactlyOnceInOrder(db, schema, keys, perKey);
    expect(appliedBefore).toBe(before);
    // Resumed after the last committed message: nothing was delivered twice, nothing skipped.
    expect(totals.get('inbox_applied')).toBe(total);
    expect(totals.get('inbox_duplicates') ?? 0).toBe(0);
  }, 60_000);

  it('wakes a consumer of another process through NOTIFY, without waiting for its polling', async () => {
    const busSchema = newBusSchema();
    const topic = randomName('test.bus.');
    const consuming = durableBus(busSchema, { pollIntervalMs: 60_000 });
    const publishing = durableBus(busSchema, { pollIntervalMs: 60_000 });
    stops.push(
      () => consuming.close(),
      () => publishing.close(),
    );
    await consuming.ensureTopics([topic]);
    const seen: string[] = [];
    await consuming.subscribe({
      groupId: 'listener',
      topics: [topic],
      handler: async (m) => {
        seen.push(m.value.toString());
      },
    });
    await publishing.publish([{ topic, key: 'k', value: Buffer.from('1'), headers: {} }]);
    await waitFor('the other process to receive it', async () => seen.length === 1, { timeoutMs: 5_000 });
    expect(seen).toEqual(['1']);
  });

  it('prunes old messages once every known group consumed them, and forgets groups left for long', async () => {
    const busSchema = newBusSchema();
    const topic = randomName('test.bus.');
    const bus = durableBus(busSchema, { retentionMs: 1_000, pruneIntervalMs: 200 });
    stops.push(() => bus.close());
    await bus.ensureTopics([topic]);
    const messages = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => ({
        topic,
        key: 'k',
        value: Buffer.from(String(from + i)),
        headers: {},
      }));
    const stored = () => count(db, busSchema, 'messages');
    await bus.publish(messages(1, 3));

    const done: string[] = [];
    await bus.subscribe({
      groupId: 'done',
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        done.push(m.value.toString());
      },
    });
    const gate = stuckGate();
    const slow = await bus.subscribe({
      groupId: 'slow',
      topics: [topic],
      fromBeginning: true,
      handler: () => gate.stuck,
    });
    await waitFor('the first group to consume all', async () => done.length === 3);
    // Past retention, but the stuck group (it has a member) has not consumed them: they stay.
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    expect(await stored()).toBe(3);

    // The stuck group goes away: after the retention it is forgotten and holds nothing back any more.
    const stopping = slow.stop();
    gate.unstick();
    await stopping;
    await waitFor('retention to prune them', async () => (await stored()) === 0, { timeoutMs: 10_000 });
    expect(await count(db, busSchema, 'positions', (q) => q.where('group_id', 'slow'))).toBe(0);

    // The remaining group keeps its position: the next message is its, and only that one.
    await bus.publish(messages(4, 4));
    await waitFor('the next message', async () => done.length === 4);
    expect(done).toEqual(['1', '2', '3', '4']);
  }, 30_000);
});
