import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from '../logging/logger';
import { withComponent } from './component-logger';
import { backoffDelay, sleep } from './backoff';
import { ChangeSignal } from './change-signal';
import type {
  BusMessage,
  DeliveredMessage,
  EnsureTopicsOptions,
  EventBus,
  RetryBackoffOptions,
  SubscribeOptions,
  Subscription,
} from './event-bus';

export interface InProcessEventBusOptions {
  logger: Logger;
  handlerRetry?: RetryBackoffOptions;
}

/** A topic is one ordered log (a single partition): total order is a superset of Kafka's per-key order. */
interface TopicLog {
  messages: BusMessage[];
}

/** Per topic: the next offset to deliver, and which subscription of the group currently consumes it. */
interface ConsumerGroup {
  positions: Map<string, number>;
  owners: Map<string, symbol>;
}

/**
 * The event bus of the embedded all-in-one mode, with Kafka's semantics (see event-bus.ts) held in memory:
 * a per-topic log, consumer groups with positions, at-least-once delivery where a failing handler gets the
 * same message again, and delivery on a later turn of the event loop. Like a Kafka partition, a topic is
 * consumed by one member of a group at a time; other members stand by and take over when it stops.
 * Nothing survives the process, which is why the outbox, not the bus, is the durable record.
 */
export function createInProcessEventBus(options: InProcessEventBusOptions): EventBus {
  const logger = withComponent(options.logger, 'event-bus');
  const topics = new Map<string, TopicLog>();
  const groups = new Map<string, ConsumerGroup>();
  const changed = new ChangeSignal();
  const subscriptions = new Set<Subscription>();
  let closed = false;

  const topicLog = (topic: string): TopicLog => {
    const log = topics.get(topic);
    // Mirrors a broker with auto-create off, so a missing ensureTopics fails in embedded mode too.
    if (!log) throw new Error(`topic ${topic} does not exist`);
    return log;
  };

  const consumeTopic = async (
    group: ConsumerGroup,
    groupId: string,
    topic: string,
    handler: SubscribeOptions['handler'],
    stopping: AbortSignal,
  ): Promise<void> => {
    const member = Symbol(groupId);
    const log = topicLog(topic);
    try {
      while (!stopping.aborted) {
        const seen = changed.current;
        const owner = group.owners.get(topic);
        if (owner === undefined) group.owners.set(topic, member);
        const offset = group.positions.get(topic) ?? 0;
        const message = log.messages[offset];
        if ((owner === undefined || owner === member) && message) {
          await nextTurn(); // asynchronous delivery, and no starving of I/O while a backlog drains
          if (await deliver(message, offset)) group.positions.set(topic, offset + 1);
          continue;
        }
        await changed.waitSince(seen);
      }
    } finally {
      if (group.owners.get(topic) === member) {
        group.owners.delete(topic);
        changed.notify(); // a standby member of the group takes over
      }
    }

    async function deliver(message: BusMessage, offset: number): Promise<boolean> {
      const delivered: DeliveredMessage = {
        topic,
        partition: 0,
        offset: String(offset),
        key: message.key,
        value: Buffer.from(message.value),
        headers: { ...message.headers },
      };
      for (let failures = 0; !stopping.aborted;) {
        try {
          await handler(delivered);
          return true;
        } catch (err) {
          failures += 1;
          logger.warn(
            { err, groupId, topic, offset, failures },
            'event handler failed; retrying the same message',
          );
          await sleep(backoffDelay(failures, options.handlerRetry), stopping);
        }
      }
      return false;
    }
  };

  return {
    async ensureTopics(names: string[], _options?: EnsureTopicsOptions): Promise<void> {
      for (const name of names) if (!topics.has(name)) topics.set(name, { messages: [] });
    },

    async publish(messages: BusMessage[]): Promise<void> {
      if (closed) throw new Error('event bus is closed');
      const logs = messages.map((m) => topicLog(m.topic)); // all or nothing, like one produce request
      messages.forEach((m, i) => {
        logs[i]!.messages.push({
          topic: m.topic,
          key: m.key,
          value: Buffer.from(m.value),
          headers: { ...m.headers },
        });
      });
      if (messages.length > 0) changed.notify();
    },

    async subscribe({
      groupId,
      topics: names,
      fromBeginning = false,
      handler,
    }: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('event bus is closed');
      const logs = names.map(topicLog);
      let group = groups.get(groupId);
      if (!group) {
        group = { positions: new Map(), owners: new Map() };
        groups.set(groupId, group);
      }
      names.forEach((name, i) => {
        if (!group.positions.has(name))
          group.positions.set(name, fromBeginning ? 0 : logs[i]!.messages.length);
      });
      const stopping = new AbortController();
      const loops = names.map((name) =>
        consumeTopic(group, groupId, name, handler, stopping.signal).catch((err: unknown) => {
          logger.error({ err, groupId, topic: name }, 'in-process consumer stopped unexpectedly');
        }),
      );
      let stopped: Promise<void> | undefined;
      const subscription: Subscription = {
        stop: () => {
          stopping.abort();
          changed.notify(); // wakes the loops so that they see the abort
          stopped ??= Promise.all(loops).then(() => {
            subscriptions.delete(subscription);
          });
          return stopped;
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async close(): Promise<void> {
      closed = true;
      await Promise.all([...subscriptions].map((s) => s.stop()));
    },
  };
}
