import type { DeliveredMessage } from '../../src/events/event-bus';
import { createKafkaEventBus, type KafkaEventBus } from '../../src/events/kafka-bus';
import { randomName, testInfra, testLogger, waitFor } from './helpers';

/**
 * ELIGO_KAFKA_FETCH_MIN_BYTES / ELIGO_KAFKA_FETCH_MAX_WAIT_MS: a fetch that waits at the broker hands events that
 * arrive close together to the consumer in one call (one transaction and one offset commit for all of them),
 * and still answers within its wait when less than the minimum is there. An eager fetch hands over each event as
 * it comes.
 */
describe('a Kafka consumer whose fetch waits for events to gather', () => {
  const MESSAGES = 10;
  const SPACING_MS = 50;
  const buses: KafkaEventBus[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    for (const bus of buses) await bus.close();
  });

  /** Publishes MESSAGES one SPACING_MS apart to a new topic; answers the calls the consumer got, by size. */
  async function consumeSpaced(fetch: { minBytes: number; maxWaitMs: number }) {
    const bus = createKafkaEventBus({
      brokers: testInfra().kafkaBrokers,
      clientId: 'fetch-wait-test',
      logger: testLogger(),
      fetch,
    });
    buses.push(bus);
    const topic = randomName('test.fetch.');
    const groupId = randomName('test.group.');
    await bus.ensureTopics([topic], { partitions: 1 });
    const calls: { size: number; at: number }[] = [];
    const subscription = await bus.subscribe({
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: async () => void calls.push({ size: 1, at: Date.now() }),
      batchHandler: async (messages: DeliveredMessage[]) =>
        void calls.push({ size: messages.length, at: Date.now() }),
    });
    cleanups.push(async () => {
      await subscription.stop();
      await bus.deleteTopics([topic]);
      await bus.deleteGroups([groupId]).catch(() => undefined);
    });
    // The consumer joins in the background: a first message, once it arrived, shows the fetch loop running.
    await bus.publish([{ topic, key: 'k', value: Buffer.from('first'), headers: {} }]);
    await waitFor('the first message', async () => calls.length > 0);
    calls.length = 0;
    let lastSent = 0;
    for (let i = 0; i < MESSAGES; i++) {
      await bus.publish([{ topic, key: 'k', value: Buffer.from(String(i)), headers: {} }]);
      lastSent = Date.now();
      await new Promise((resolve) => setTimeout(resolve, SPACING_MS));
    }
    await waitFor('every message', async () => calls.reduce((n, c) => n + c.size, 0) >= MESSAGES);
    return { calls, lastDeliveredAfterMs: calls.at(-1)!.at - lastSent };
  }

  it('hands events that arrive within its wait over together, within the wait', async () => {
    const { calls, lastDeliveredAfterMs } = await consumeSpaced({ minBytes: 1024 * 1024, maxWaitMs: 1500 });
    // The ten messages span 500 ms: one wait of 1.5 s holds them all, or two when it ended in their midst.
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(calls.reduce((n, c) => n + c.size, 0)).toBe(MESSAGES);
    // Less than the minimum was there: the fetch answered when its wait was over, not later.
    expect(lastDeliveredAfterMs).toBeLessThan(1500 + 1000);
  }, 60_000);

  it('hands each event over as it comes when its fetch does not wait', async () => {
    const { calls } = await consumeSpaced({ minBytes: 1, maxWaitMs: 1500 });
    expect(calls.length).toBeGreaterThanOrEqual(5);
  }, 60_000);
});
