/**
 * The only file that imports kafkajs: the library is unmaintained upstream, so replacing it must stay a
 * one-file change behind the EventBus interface.
 */
import {
  Kafka,
  Partitioners,
  logLevel as KafkaLogLevel,
  type EachBatchPayload,
  type IHeaders,
  type KafkaMessage,
  type LogEntry,
  type Producer,
} from 'kafkajs';
import type { Logger } from '../logging/logger';
import { withComponent } from './component-logger';
import { backoffDelay, sleep } from './backoff';
import type {
  BusMessage,
  DeliveredMessage,
  EnsureTopicsOptions,
  EventBus,
  MessageHandler,
  RetryBackoffOptions,
  SubscribeOptions,
  Subscription,
} from './event-bus';

export interface KafkaEventBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** Prepended to every consumer group id (ELIGO_KAFKA_GROUP_PREFIX); none by default. */
  groupPrefix?: string;
  /**
   * Attempts per publish before it fails. Bounded on purpose: the outbox relay then rolls back and retries
   * with its own backoff instead of holding a database transaction open while a broker is away.
   */
  publishRetries?: number;
  /** A dead consumer's partitions move to another member after this long without heartbeats. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  handlerRetry?: RetryBackoffOptions;
}

const pinoLevelFor: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [KafkaLogLevel.ERROR]: 'error',
  [KafkaLogLevel.WARN]: 'warn',
  [KafkaLogLevel.INFO]: 'info',
  [KafkaLogLevel.DEBUG]: 'debug',
};

function kafkaLevelFor(logger: Logger): KafkaLogLevel {
  switch (logger.level) {
    case 'trace':
    case 'debug':
      return KafkaLogLevel.DEBUG;
    case 'info':
      return KafkaLogLevel.INFO;
    case 'warn':
      return KafkaLogLevel.WARN;
    case 'silent':
      return KafkaLogLevel.NOTHING;
    default:
      return KafkaLogLevel.ERROR;
  }
}

// Bounded retries are deliberate (see publishRetries) and the producer is replaced after a failure, so this
// kafkajs warning describes a risk we already handle; it would otherwise greet every start at warn level.
const EXPECTED_WARNINGS = new Set([
  'Limiting retries for the idempotent producer may invalidate EoS guarantees',
]);

function routeKafkaLogs(logger: Logger) {
  return () =>
    ({ namespace, level, log }: LogEntry): void => {
      const { message, timestamp: _timestamp, ...extra } = log;
      let pinoLevel = EXPECTED_WARNINGS.has(message) ? 'debug' : (pinoLevelFor[level] ?? 'info');
      // kafkajs logs every error response at error level, also those it retries (a coordinator still
      // loading, a leader moving); the operation's final failure reaches us as an exception or a crash.
      if (pinoLevel === 'error' && namespace === 'Connection' && message.startsWith('Response '))
        pinoLevel = 'warn';
      logger[pinoLevel]({ namespace, ...extra }, message);
    };
}

function headerText(value: IHeaders[string]): string | undefined {
  // A header repeated on the wire arrives as an array; the CloudEvents binding defines one value, take the last.
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return last === undefined ? undefined : last.toString();
}

function toDelivered(topic: string, partition: number, message: KafkaMessage): DeliveredMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const text = headerText(value);
    if (text !== undefined) headers[name] = text;
  }
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? '',
    value: message.value ?? Buffer.alloc(0),
    headers,
  };
}

/** Administration beyond what services need, for the CLI and for tests that clean up after themselves. */
export interface KafkaEventBus extends EventBus {
  deleteTopics(topics: string[]): Promise<void>;
  deleteGroups(groupIds: string[]): Promise<void>;
}

export function createKafkaEventBus(options: KafkaEventBusOptions): KafkaEventBus {
  const logger = withComponent(options.logger, 'kafka');
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: kafkaLevelFor(logger),
    logCreator: routeKafkaLogs(logger),
  });
  const admin = kafka.admin();
  let adminConnected: Promise<void> | undefined;
  let producer: Promise<Producer> | undefined;
  const subscriptions = new Set<Subscription>();
  let closed = false;

  const connectAdmin = (): Promise<void> => {
    adminConnected ??= admin.connect().catch((err: unknown) => {
      adminConnected = undefined;
      throw err;
    });
    return adminConnected;
  };

  const getProducer = (): Promise<Producer> => {
    if (!producer) {
      const created = (async () => {
        const p = kafka.producer({
          idempotent: true,
          // Required by kafkajs for idempotence, and keeps per-partition order across retries.
          maxInFlightRequests: 1,
          createPartitioner: Partitioners.DefaultPartitioner,
          allowAutoTopicCreation: false,
          retry: { retries: options.publishRetries ?? 5 },
        });
        await p.connect();
        return p;
      })();
      created.catch(() => {
        if (producer === created) producer = undefined; // the next publish tries to connect again
      });
      producer = created;
    }
    return producer;
  };

  // After a failed send the idempotent sequence numbers may no longer match the broker's; a new producer
  // id starts clean. Messages it repeats are deduplicated by ce_id in the consumers' inboxes.
  const resetProducer = async (): Promise<void> => {
    const current = producer;
    producer = undefined;
    await current?.then((p) => p.disconnect()).catch(() => undefined);
  };

  const consume =
    (handler: MessageHandler, groupId: string, stopping: AbortSignal) =>
    async ({
      batch,
      resolveOffset,
      heartbeat,
      commitOffsetsIfNecessary,
      isRunning,
      isStale,
      uncommittedOffsets,
    }: EachBatchPayload) => {
      try {
        await handleBatch();
      } finally {
        // End of the batch, or a stop: commit what was handled now rather than at the next interval, so that a
        // clean stop or a hand-over to another member redelivers nothing (the interval alone lost these).
        const pending = uncommittedOffsets();
        if (pending.topics.some((t) => t.partitions.length > 0)) {
          await commitOffsetsIfNecessary(pending).catch((err: unknown) =>
            logger.warn({ err, groupId, topic: batch.topic }, 'offset commit at end of batch failed'),
          );
        }
      }

      async function handleBatch(): Promise<void> {
        for (const message of batch.messages) {
          const delivered = toDelivered(batch.topic, batch.partition, message);
          for (let failures = 0; ;) {
            // Not resolving an offset is what keeps a message for later: kafkajs fetches again from the
            // first unresolved offset and only ever commits resolved ones.
            if (stopping.aborted || !isRunning() || isStale()) return;
            try {
              await handler(delivered);
              break;
            } catch (err) {
              failures += 1;
              logger.warn(
                {
                  err,
                  groupId,
                  topic: batch.topic,
                  partition: batch.partition,
                  offset: message.offset,
                  failures,
                },
                'event handler failed; retrying the same message',
              );
              await heartbeat();
              await sleep(backoffDelay(failures, options.handlerRetry), stopping);
            }
          }
          resolveOffset(message.offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
        }
      }
    };

  return {
    async ensureTopics(topics: string[], topicOptions: EnsureTopicsOptions = {}): Promise<void> {
      await connectAdmin();
      const existing = new Set(await admin.listTopics());
      const missing = topics.filter((t) => !existing.has(t));
      if (missing.length === 0) return;
      // createTopics answers false (not an error) for topics that a concurrent caller created first.
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: topicOptions.partitions ?? 3,
          replicationFactor: topicOptions.replicationFactor ?? -1,
        })),
      });
      logger.info({ topics: missing }, 'created topics');
    },

    async publish(messages: BusMessage[]): Promise<void> {
      if (closed) throw new Error('event bus is closed');
      if (messages.length === 0) return;
      const byTopic = new Map<string, BusMessage[]>();
      for (const m of messages) byTopic.set(m.topic, [...(byTopic.get(m.topic) ?? []), m]);
      const p = await getProducer();
      try {
        await p.sendBatch({
          acks: -1,
          topicMessages: [...byTopic].map(([topic, msgs]) => ({
            topic,
            messages: msgs.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
          })),
        });
      } catch (err) {
        await resetProducer();
        throw err;
      }
    },

    async subscribe({
      groupId,
      topics,
      fromBeginning = false,
      handler,
    }: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('event bus is closed');
      const consumer = kafka.consumer({
        groupId: `${options.groupPrefix ?? ''}${groupId}`,
        allowAutoTopicCreation: false,
        // The broker holds an empty fetch this long; stop() and rebalances wait for it, so keep it short.
        maxWaitTimeInMs: 1000,
        ...(options.sessionTimeoutMs === undefined ? {} : { sessionTimeout: options.sessionTimeoutMs }),
        ...(options.heartbeatIntervalMs === undefined
          ? {}
          : { heartbeatInterval: options.heartbeatIntervalMs }),
      });
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        logger.error({ err: payload.error, groupId, restart: payload.restart }, 'kafka consumer crashed');
      });
      // subscribe() resolves once the consumer is a member of its group, so "only new messages" means the
      // ones published after that, and a consumer that can never join fails its caller instead of idling.
      const joined = new Promise<void>((resolve, reject) => {
        const removers = [
          consumer.on(consumer.events.GROUP_JOIN, () => settle(resolve)),
          consumer.on(consumer.events.CRASH, ({ payload }) => {
            if (!payload.restart) settle(() => reject(payload.error));
          }),
        ];
        const settle = (fn: () => void): void => {
          removers.forEach((remove) => remove());
          fn();
        };
      });
      joined.catch(() => undefined); // observed below; this only keeps an early failure from being "unhandled"
      const stopping = new AbortController();
      await consumer.connect();
      try {
        await consumer.subscribe({ topics, fromBeginning });
        await consumer.run({
          eachBatchAutoResolve: false,
          autoCommit: true,
          // Offsets of handled messages are committed at least this often and at the end of every batch.
          autoCommitInterval: 1000,
          eachBatch: consume(handler, groupId, stopping.signal),
        });
        await joined;
      } catch (err) {
        stopping.abort();
        await consumer.disconnect();
        throw err;
      }
      let stopped: Promise<void> | undefined;
      const subscription: Subscription = {
        stop: () => {
          stopping.abort();
          // disconnect() waits for the handler call in flight and commits the offsets resolved so far.
          stopped ??= consumer.disconnect().finally(() => subscriptions.delete(subscription));
          return stopped;
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async deleteTopics(topics: string[]): Promise<void> {
      await connectAdmin();
      const existing = new Set(await admin.listTopics());
      const present = topics.filter((t) => existing.has(t));
      if (present.length > 0) await admin.deleteTopics({ topics: present });
    },

    async deleteGroups(groupIds: string[]): Promise<void> {
      await connectAdmin();
      await admin.deleteGroups(groupIds);
    },

    async close(): Promise<void> {
      closed = true;
      await Promise.allSettled([...subscriptions].map((s) => s.stop()));
      await resetProducer();
      if (adminConnected) await adminConnected.then(() => admin.disconnect()).catch(() => undefined);
    },
  };
}
