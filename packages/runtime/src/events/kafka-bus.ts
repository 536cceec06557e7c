/**
 * The only file that imports kafkajs (with kafka-client-options.ts, its TLS and SASL options): the library is
 * unmaintained upstream, so replacing it must stay a change of these files behind the EventBus interface.
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
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KafkaSecurity } from '../config/kafka-security';
import type { Logger } from '../logging/logger';
import { withComponent } from './component-logger';
import { kafkaClientSecurity, kafkaSecurityWarnings } from './kafka-client-options';
import { backoffDelay, sleep } from '../util/backoff';
import type { LagReporting, PartitionLag } from './consumer-lag';
import { MAX_HANDLER_BATCH } from './event-bus';
import type {
  BatchHandler,
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
  /** TLS and SASL (config.kafka.security); plaintext without. */
  security?: KafkaSecurity;
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
  /**
   * A fetch answers once `minBytes` of events are there or after `maxWaitMs` (Kafka's fetch.min.bytes and
   * fetch.max.wait.ms). Default 1 byte and 1 s: each event as soon as it is there, an empty fetch held 1 s.
   */
  fetch?: { minBytes: number; maxWaitMs: number };
  handlerRetry?: RetryBackoffOptions;
  /**
   * A consumer stopped for good after its subscribe() resolved (an error kafkajs does not retry, in the
   * background join or later): nothing consumes its topics any more, so the launcher stops the process.
   */
  onConsumerFailure?(err: unknown): void;
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

/**
 * kafkajs requires the encoder of each protocol request on its first use. The group join runs after subscribe()
 * resolved, and a require() at that moment fails where requires are refused between tests (jest), which
 * kafkajs turns into a crash of the join. Loading the encoders a consumer uses up front costs a few ms, once
 * (module.require: the paths are computed, which no import statement can express).
 *
 * Each is loaded through the `require` of the kafkajs module that asks for it at every request (its API's
 * index.js, `require('./v5/request')`), lowest version first: Node remembers a relative path it resolved only
 * for the parent that loaded the file first. Loaded from here instead, every fetch and offset commit made Node
 * resolve both files again (stat calls and package.json reads, about 1% of the all-in-one's main thread).
 */
const consumerApis = [
  'findCoordinator',
  'joinGroup',
  'syncGroup',
  'heartbeat',
  'leaveGroup',
  'offsetFetch',
  'offsetCommit',
  'listOffsets',
  'fetch',
];
let consumerProtocolLoaded = false;
export function loadConsumerProtocol(): void {
  if (consumerProtocolLoaded) return;
  consumerProtocolLoaded = true;
  const requests = join(dirname(require.resolve('kafkajs/package.json')), 'src', 'protocol', 'requests');
  for (const api of consumerApis) {
    const index = join(requests, api, 'index.js');
    module.require(index);
    const asker = require.cache[index];
    const versions = readdirSync(join(requests, api))
      .filter((v) => /^v\d+$/.test(v))
      .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    for (const version of versions) {
      for (const part of ['request', 'response']) {
        // Under jest's module registry require.cache has no entry for it: loaded by path then, as before.
        if (asker) asker.require(`./${version}/${part}`);
        else module.require(join(requests, api, version, part));
      }
    }
  }
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

interface PartitionOffsets {
  topic: string;
  partition: number;
  committed: number;
  low: string;
  high: string;
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
    ...kafkaClientSecurity(options.security),
  });
  for (const warning of kafkaSecurityWarnings(options.security)) logger.warn(warning);
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
    (
      handler: MessageHandler,
      batchHandler: BatchHandler | undefined,
      groupId: string,
      stopping: AbortSignal,
    ) =>
    async ({
      batch,
      resolveOffset,
      heartbeat,
      commitOffsetsIfNecessary,
      isRunning,
      isStale,
      uncommittedOffsets,
    }: EachBatchPayload) => {
      // Not resolving an offset is what keeps a message for later: kafkajs fetches again from the first
      // unresolved offset and only ever commits resolved ones.
      const running = (): boolean => !stopping.aborted && isRunning() && !isStale();
      const handled = async (offset: string): Promise<void> => {
        resolveOffset(offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
      };

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
        const messages = batch.messages;
        for (let from = 0; from < messages.length; from += MAX_HANDLER_BATCH) {
          const chunk = messages.slice(from, from + MAX_HANDLER_BATCH);
          if (batchHandler && chunk.length > 1) {
            if (!running()) return;
            const applied = await batchHandler(
              chunk.map((m) => toDelivered(batch.topic, batch.partition, m)),
            ).then(
              () => true,
              (err: unknown) => {
                logger.debug(
                  { err, groupId, topic: batch.topic, partition: batch.partition, size: chunk.length },
                  'batch handler failed; handling its messages one at a time',
                );
                return false;
              },
            );
            if (applied) {
              await handled(chunk[chunk.length - 1]!.offset);
              continue;
            }
          }
          for (const message of chunk) {
            if (!(await handleOne(message))) return;
            await handled(message.offset);
          }
        }
      }

      /** The message through `handler`, again after each failure; false when stopping first. */
      async function handleOne(message: KafkaMessage): Promise<boolean> {
        const delivered = toDelivered(batch.topic, batch.partition, message);
        for (let failures = 0; ;) {
          if (!running()) return false;
          try {
            await handler(delivered);
            return true;
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
      }
    };

  /** Per partition of the topics: the group's committed position (-1: none yet) and the partition's offsets. */
  const partitionOffsets = async (groupId: string, topics: string[]): Promise<PartitionOffsets[]> => {
    await connectAdmin();
    const offsets: PartitionOffsets[] = [];
    // The group's coordinator may be moving (a fresh broker, a group just created): the broker then answers
    // "not the correct coordinator", which kafkajs's admin does not retry itself.
    const committedByTopic = await retryRetriable(logger, 'fetch group offsets', () =>
      admin.fetchOffsets({ groupId, topics }),
    );
    for (const { topic, partitions } of committedByTopic) {
      const committed = new Map(partitions.map((p) => [p.partition, Number(p.offset)]));
      for (const { partition, low, high } of await admin.fetchTopicOffsets(topic))
        offsets.push({ topic, partition, committed: committed.get(partition) ?? -1, low, high });
    }
    return offsets;
  };

  return {
    async ensureTopics(topics: string[], topicOptions: EnsureTopicsOptions = {}): Promise<void> {
      await connectAdmin();
      // On a fresh broker, processes starting together create the same topics: the broker then answers
      // retriable errors ("does not host this topic-partition") for a moment. Start-up waits them out.
      await retryRetriable(logger, 'ensure topics', async () => {
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
      });
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

    /**
     * Resolves once the consumer's starting position is fixed, without waiting for it to join its group: after
     * a hard restart the broker holds the join until the dead member's session expires (30 s by default), and
     * a process must not wait for that to serve. Messages wait in Kafka meanwhile; lag() shows them.
     */
    async subscribe({
      groupId,
      topics,
      fromBeginning = false,
      handler,
      batchHandler,
    }: SubscribeOptions): Promise<Subscription & LagReporting> {
      if (closed) throw new Error('event bus is closed');
      const group = `${options.groupPrefix ?? ''}${groupId}`;
      const stopping = new AbortController();
      const consumer = kafka.consumer({
        groupId: group,
        allowAutoTopicCreation: false,
        // The broker holds a fetch this long unless minBytes gathered first; stop() and rebalances wait for it,
        // so keep it short.
        maxWaitTimeInMs: options.fetch?.maxWaitMs ?? 1000,
        minBytes: options.fetch?.minBytes ?? 1,
        ...(options.sessionTimeoutMs === undefined ? {} : { sessionTimeout: options.sessionTimeoutMs }),
        ...(options.heartbeatIntervalMs === undefined
          ? {}
          : { heartbeatInterval: options.heartbeatIntervalMs }),
        // kafkajs restarts a consumer after a retriable crash, but must not bring back one being stopped.
        retry: { retries: 5, restartOnFailure: async () => !stopping.signal.aborted },
      });
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (stopping.signal.aborted) return;
        logger.error({ err: payload.error, groupId, restart: payload.restart }, 'kafka consumer crashed');
        if (!payload.restart) options.onConsumerFailure?.(payload.error);
      });
      loadConsumerProtocol();
      await consumer.connect();
      let pins: Map<string, string>;
      try {
        await consumer.subscribe({ topics, fromBeginning });
        // Where "only new messages" starts for partitions the group has no position on yet: their end now.
        const offsets = fromBeginning ? [] : await partitionOffsets(group, topics);
        pins = new Map(
          offsets.filter((p) => p.committed < 0).map((p) => [`${p.topic}/${p.partition}`, p.high]),
        );
      } catch (err) {
        await consumer.disconnect();
        throw err;
      }
      // "Only new messages" means those published after subscribe() resolved, as with the in-process bus: a
      // new group starts where the topics ended then, not where they end once the join completes.
      let firstJoin = true;
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        if (!firstJoin) return;
        firstJoin = false;
        for (const [topic, partitions] of Object.entries(payload.memberAssignment)) {
          for (const partition of partitions) {
            const offset = pins.get(`${topic}/${partition}`);
            if (offset !== undefined) consumer.seek({ topic, partition, offset });
          }
        }
      });
      // Not awaited: run() resolves once the join settled (joined, or crashed, reported above).
      const started = consumer
        .run({
          eachBatchAutoResolve: false,
          autoCommit: true,
          // Offsets of handled messages are committed at least this often and at the end of every batch.
          autoCommitInterval: 1000,
          eachBatch: consume(handler, batchHandler, groupId, stopping.signal),
        })
        .catch((err: unknown) => {
          if (!stopping.signal.aborted) options.onConsumerFailure?.(err);
        });
      let stopped: Promise<void> | undefined;
      const subscription = {
        stop: () => {
          stopping.abort();
          // A join in flight cannot be cut short (kafkajs waits for the broker's answer); once it settled,
          // disconnect() waits for the handler call in flight, commits what was handled and leaves the group.
          stopped ??= started
            .then(() => consumer.disconnect())
            .finally(() => subscriptions.delete(subscription));
          return stopped;
        },
        // A partition without a committed position counts from where the group starts on it.
        lag: async (): Promise<PartitionLag[]> =>
          (await partitionOffsets(group, topics)).map(({ topic, partition, committed, low, high }) => {
            const from = committed >= 0 ? committed : Number(pins.get(`${topic}/${partition}`) ?? low);
            return { topic, partition, lag: Math.max(0, Number(high) - from) };
          }),
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

/** Kafka marks transient protocol errors retriable (also inside a KafkaJSNumberOfRetriesExceeded). */
function isRetriable(err: unknown): boolean {
  const e = err as { retriable?: unknown; cause?: unknown; originalError?: unknown } | undefined;
  if (!e || typeof e !== 'object') return false;
  return e.retriable === true || isRetriable(e.cause) || isRetriable(e.originalError);
}

/** Runs `attempt` again while it fails with a retriable Kafka error, for up to about 30 s. */
async function retryRetriable<T>(logger: Logger, what: string, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isRetriable(err) || Date.now() > deadline) throw err;
      logger.warn({ err, attempt: n }, `${what}: retriable Kafka error, trying again`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 200 * n)));
    }
  }
}
