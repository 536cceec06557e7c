/**
 * The event bus seen by services (docs/architecture.md, "Events" and "Configuration and embedded defaults").
 * Two implementations keep the same semantics so that all-in-one mode is not a second, weaker code path:
 * Kafka (`createKafkaEventBus`) and in-process (`createInProcessEventBus`).
 *
 * Guarantees both give:
 * - messages with the same key on the same topic are delivered in publish order;
 * - delivery is at-least-once: a consumer group's position moves past a message only after its handler
 *   resolved; a handler that throws gets the same message again (after a backoff), never the next one;
 * - handlers run asynchronously, never inside `publish`.
 * Duplicates are therefore possible (a crash between effect and offset commit, a relay that republishes):
 * consumers deduplicate by `ce_id` through the inbox.
 */
export interface BusMessage {
  topic: string;
  /** The aggregate id: it decides the partition, hence the ordering scope. */
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

export interface DeliveredMessage extends BusMessage {
  partition: number;
  /** Position in the partition (a decimal string: Kafka offsets are 64-bit). */
  offset: string;
}

export type MessageHandler = (message: DeliveredMessage) => Promise<void>;

/**
 * Handles consecutive messages of one partition, in order, all or nothing: when it throws, none of them may
 * have taken effect. The bus then gives the same messages to the subscription's `handler` one at a time,
 * with its usual retries, so that a message that keeps failing is isolated from the others.
 */
export type BatchHandler = (messages: DeliveredMessage[]) => Promise<void>;

/** The most messages a bus passes to a batch handler at once (it splits larger fetches). */
export const MAX_HANDLER_BATCH = 100;

export interface SubscribeOptions {
  /** Consumers sharing a group id share the work and one committed position per partition. */
  groupId: string;
  topics: string[];
  /** Where a group without a committed position starts: the oldest message, or only new ones. */
  fromBeginning?: boolean;
  handler: MessageHandler;
  /**
   * Optional: called instead of `handler` when two or more messages of a partition are ready, so that a
   * consumer can apply them in one database transaction (event-consumer.ts) instead of one each.
   */
  batchHandler?: BatchHandler;
}

export interface Subscription {
  /** Stops fetching, waits for the handler call in flight, and keeps the committed position. */
  stop(): Promise<void>;
}

export interface EnsureTopicsOptions {
  partitions?: number;
  replicationFactor?: number;
}

export interface EventBus {
  /** Creates missing topics (brokers run with auto-create off); existing topics are left unchanged. */
  ensureTopics(topics: string[], options?: EnsureTopicsOptions): Promise<void>;
  /** Resolves once every message is durably accepted (acks=all); rejects if any of them may not be. */
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Stops every subscription and releases connections. */
  close(): Promise<void>;
}

/** Handler retry backoff shared by both implementations. */
export interface RetryBackoffOptions {
  initialMs?: number;
  maxMs?: number;
}
