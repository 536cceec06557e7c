import { randomBytes } from 'node:crypto';
import { createKafkaEventBus, createLogger, type DeliveredMessage } from '@eligo/runtime';

/** Polls `probe` every 50 ms until it returns a value; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface TopicRecorder {
  /** Every message so far, in arrival order. */
  messages: DeliveredMessage[];
  /** Waits until at least `count` messages with this key arrived; resolves with all of them, in order. */
  keyed(key: string, count: number): Promise<DeliveredMessage[]>;
  stop(): Promise<void>;
}

/**
 * Everything published on a topic of the suite's Kafka (ELIGO_TEST_KAFKA_BROKERS), read by a consumer group
 * of its own from the beginning. The topic is shared by every test database of the run, so assertions pick
 * messages by key (ids the test created).
 */
export async function recordTopic(topic: string, env = process.env): Promise<TopicRecorder> {
  const brokers = (env.ELIGO_TEST_KAFKA_BROKERS ?? '').split(',').filter(Boolean);
  const name = `${topic}-it-${randomBytes(6).toString('hex')}`;
  const bus = createKafkaEventBus({
    brokers,
    clientId: name,
    logger: createLogger({ level: env.ELIGO_TEST_LOG_LEVEL ?? 'error' }),
  });
  const messages: DeliveredMessage[] = [];
  const subscription = await bus.subscribe({
    groupId: name,
    topics: [topic],
    fromBeginning: true,
    handler: async (message) => {
      messages.push(message);
    },
  });
  return {
    messages,
    keyed: (key, count) =>
      waitFor(`${count} messages keyed ${key} on ${topic}`, () => {
        const found = messages.filter((m) => m.key === key);
        return found.length >= count ? found : undefined;
      }),
    async stop() {
      await subscription.stop();
      await bus.deleteGroups([name]).catch(() => undefined);
      await bus.close();
    },
  };
}
