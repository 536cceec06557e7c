import type { DeliveredMessage, EventBus, Subscription } from '../../src/events/event-bus';
import { createInProcessEventBus } from '../../src/events/in-process-bus';
import { createKafkaEventBus, type KafkaEventBus } from '../../src/events/kafka-bus';
import { createPostgresBusLog } from '../../src/events/postgres-bus-log';
import { dropSchema, randomName, testDb, testInfra, testLogger, waitFor } from './helpers';

// One contract, two implementations (the in-process one on its memory and on its Postgres log): all-in-one mode
// must behave like production (docs/architecture.md, "Modules and targets").
interface Harness {
  bus: EventBus;
  cleanup(topics: string[], groups: string[]): Promise<void>;
}

const handlerRetry = { initialMs: 10, maxMs: 50 };
const harnesses: [string, () => Harness][] = [
  [
    'kafka',
    () => {
      const bus: KafkaEventBus = createKafkaEventBus({
        brokers: testInfra().kafkaBrokers,
        clientId: 'event-bus-test',
        logger: testLogger(),
        publishRetries: 1,
        sessionTimeoutMs: 6000,
        heartbeatIntervalMs: 500,
        handlerRetry,
      });
      return {
        bus,
        cleanup: async (topics, groups) => {
          await bus.deleteTopics(topics);
          await bus.deleteGroups(groups).catch(() => undefined);
        },
      };
    },
  ],
  [
    'in-process',
    () => ({
      bus: createInProcessEventBus({ logger: testLogger(), handlerRetry }),
      cleanup: async () => undefined,
    }),
  ],
  [
    'in-process on postgres',
    () => {
      const schema = randomName('bus_');
      const log = createPostgresBusLog({ url: testInfra().databaseUrl, schema, logger: testLogger() });
      return {
        bus: createInProcessEventBus({ logger: testLogger(), handlerRetry, log }),
        cleanup: async () => {
          const db = testDb(testInfra().databaseUrl);
          await dropSchema(db, schema);
          await db.destroy();
        },
      };
    },
  ],
];

/** What a handler saw, as "key:n" strings, in delivery order. */
function recorder(): {
  seen: string[];
  messages: DeliveredMessage[];
  handler(m: DeliveredMessage): Promise<void>;
} {
  const seen: string[] = [];
  const messages: DeliveredMessage[] = [];
  return {
    seen,
    messages,
    handler: async (m) => {
      seen.push(`${m.key}:${m.value.toString()}`);
      messages.push(m);
    },
  };
}

const message = (topic: string, key: string, n: number) => ({
  topic,
  key,
  value: Buffer.from(String(n)),
  headers: { ce_id: `${key}-${n}`, 'content-type': 'text/plain' },
});
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe.each(harnesses)('%s event bus', (_name, makeHarness) => {
  let harness: Harness;
  const topics: string[] = [];
  const groups: string[] = [];
  const subscriptions: Subscription[] = [];

  const newTopic = async (partitions: number): Promise<string> => {
    const topic = randomName('test.bus.');
    await harness.bus.ensureTopics([topic], { partitions });
    topics.push(topic);
    return topic;
  };
  const subscribe = async (
    options: Omit<Parameters<EventBus['subscribe']>[0], 'groupId'> & { groupId?: string },
  ) => {
    const groupId = options.groupId ?? randomName('test.group.');
    groups.push(groupId);
    const subscription = await harness.bus.subscribe({ ...options, groupId });
    subscriptions.push(subscription);
    return subscription;
  };

  beforeAll(() => {
    harness = makeHarness();
  });

  afterAll(async () => {
    await Promise.all(subscriptions.map((s) => s.stop()));
    await harness.cleanup(topics, groups);
    await harness.bus.close();
  });

  it('delivers key, value and headers, in publish order per key', async () => {
    const topic = await newTopic(3);
    const keys = ['alpha', 'bravo', 'charlie', 'delta'];
    for (const batch of [range(1, 10), range(11, 15), range(16, 20)]) {
      await harness.bus.publish(batch.flatMap((n) => keys.map((key) => message(topic, key, n))));
    }
    const received = recorder();
    await subscribe({ topics: [topic], fromBeginning: true, handler: received.handler });
    await waitFor('every message', async () => received.seen.length >= 80);

    for (const key of keys) {
      expect(received.seen.filter((s) => s.startsWith(`${key}:`))).toEqual(
        range(1, 20).map((n) => `${key}:${n}`),
      );
    }
    const first = received.messages.find((m) => m.key === 'bravo' && m.value.toString() === '7');
    expect(first).toMatchObject({ topic, headers: { ce_id: 'bravo-7', 'content-type': 'text/plain' } });
    expect(received.seen).toHaveLength(80);
  });

  it('gives a failing handler the same message again and holds back the ones after it', async () => {
    const topic = await newTopic(1);
    await harness.bus.publish(range(1, 5).map((n) => message(topic, 'k', n)));
    const attempts: string[] = [];
    let failuresLeft = 2;
    await subscribe({
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        attempts.push(m.value.toString());
        if (m.value.toString() === '3' && failuresLeft-- > 0) throw new Error('injected handler failure');
      },
    });
    await waitFor('the last message', async () => attempts.includes('5'));
    expect(attempts).toEqual(['1', '2', '3', '3', '3', '4', '5']);
  });

  it('resumes a group after the last handled message', async () => {
    const topic = await newTopic(1);
    const groupId = randomName('test.group.');
    await harness.bus.publish(range(1, 5).map((n) => message(topic, 'k', n)));
    const first = recorder();
    const subscription = await subscribe({
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: first.handler,
    });
    await waitFor('the first five', async () => first.seen.length >= 5);
    await subscription.stop();

    await harness.bus.publish(range(6, 8).map((n) => message(topic, 'k', n)));
    const second = recorder();
    await subscribe({ groupId, topics: [topic], fromBeginning: true, handler: second.handler });
    await waitFor('the next three', async () => second.seen.length >= 3);
    // One partition: a redelivered message would come before k:6.
    expect(second.seen).toEqual(['k:6', 'k:7', 'k:8']);
  });

  it('starts a new group at the end of the topic unless asked for the beginning', async () => {
    const topic = await newTopic(1);
    await harness.bus.publish(range(1, 3).map((n) => message(topic, 'k', n)));
    const latest = recorder();
    await subscribe({ topics: [topic], fromBeginning: false, handler: latest.handler });
    const all = recorder();
    await subscribe({ topics: [topic], fromBeginning: true, handler: all.handler });
    await harness.bus.publish(range(4, 5).map((n) => message(topic, 'k', n)));
    await waitFor('the new messages', async () => latest.seen.length >= 2 && all.seen.length >= 5);
    expect(latest.seen).toEqual(['k:4', 'k:5']);
    expect(all.seen).toEqual(range(1, 5).map((n) => `k:${n}`));
  });

  it('lets another member of the group take over when the consuming one stops', async () => {
    const topic = await newTopic(1);
    const groupId = randomName('test.group.');
    const a = recorder();
    const b = recorder();
    const subA = await subscribe({ groupId, topics: [topic], fromBeginning: true, handler: a.handler });
    const subB = await subscribe({ groupId, topics: [topic], fromBeginning: true, handler: b.handler });
    await harness.bus.publish(range(1, 4).map((n) => message(topic, 'k', n)));
    await waitFor('the first four', async () => a.seen.length + b.seen.length >= 4);
    // One partition, so one member has it all; stopping that one hands the partition to the other.
    const [active, standby, stopActive] = a.seen.length > 0 ? [a, b, subA] : [b, a, subB];
    expect(active.seen).toEqual(range(1, 4).map((n) => `k:${n}`));
    expect(standby.seen).toEqual([]);
    await stopActive.stop();

    await harness.bus.publish(range(5, 6).map((n) => message(topic, 'k', n)));
    await waitFor('the standby to take over', async () => standby.seen.length >= 2, { timeoutMs: 45_000 });
    expect(standby.seen).toEqual(['k:5', 'k:6']);
  }, 60_000);

  it('gives a batch handler the messages ready on a partition together, in order, and moves past them', async () => {
    const topic = await newTopic(1);
    const groupId = randomName('test.group.');
    await harness.bus.publish(range(1, 30).map((n) => message(topic, 'k', n)));
    const batches: string[][] = [];
    const single = recorder();
    const subscription = await subscribe({
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: single.handler,
      batchHandler: async (messages) => void batches.push(messages.map((m) => m.value.toString())),
    });
    const seen = () => [...batches.flat(), ...single.seen.map((s) => s.slice(2))];
    await waitFor('all thirty', async () => seen().length >= 30);
    expect(batches.flat()).toEqual(range(1, 30).map(String)); // one partition, all ready: no single delivery
    expect(single.seen).toEqual([]);
    expect(Math.max(...batches.map((b) => b.length))).toBeGreaterThan(1);
    await subscription.stop();

    await harness.bus.publish([message(topic, 'k', 31)]);
    const after = recorder();
    await subscribe({ groupId, topics: [topic], handler: after.handler, batchHandler: async () => {} });
    await waitFor('the next message', async () => after.seen.length >= 1);
    expect(after.seen).toEqual(['k:31']); // a batch of one goes to the handler; nothing before it again
  });

  it('gives the messages of a failed batch to the handler one at a time, each once', async () => {
    const topic = await newTopic(1);
    await harness.bus.publish(range(1, 10).map((n) => message(topic, 'k', n)));
    const single = recorder();
    let batchCalls = 0;
    await subscribe({
      topics: [topic],
      fromBeginning: true,
      handler: single.handler,
      batchHandler: async () => {
        batchCalls += 1;
        throw new Error('injected batch failure');
      },
    });
    await waitFor('all ten', async () => single.seen.length >= 10);
    expect(batchCalls).toBeGreaterThan(0);
    expect(single.seen).toEqual(range(1, 10).map((n) => `k:${n}`));
  });

  it('refuses to publish to a topic that was never created', async () => {
    await expect(harness.bus.publish([message(randomName('test.missing.'), 'k', 1)])).rejects.toThrow();
  });

  it('creates topics idempotently', async () => {
    const topic = await newTopic(2);
    await expect(harness.bus.ensureTopics([topic], { partitions: 2 })).resolves.toBeUndefined();
  });
});
