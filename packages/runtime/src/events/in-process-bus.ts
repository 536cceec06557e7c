import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from '../logging/logger';
import { withComponent } from './component-logger';
import { backoffDelay, sleep, type BackoffOptions } from '../util/backoff';
import type { BusLog, LoggedMessage } from './bus-log';
import { ChangeSignal } from './change-signal';
import { MAX_HANDLER_BATCH } from './event-bus';
import type {
  BusMessage,
  DeliveredMessage,
  EnsureTopicsOptions,
  EventBus,
  RetryBackoffOptions,
  SubscribeOptions,
  Subscription,
} from './event-bus';
import { createMemoryBusLog } from './memory-bus-log';

const delivered = (topic: string, message: LoggedMessage): DeliveredMessage => ({
  topic,
  partition: 0,
  offset: String(message.offset),
  key: message.key,
  value: message.value,
  headers: message.headers,
});

export interface InProcessEventBusOptions {
  logger: Logger;
  handlerRetry?: RetryBackoffOptions;
  /**
   * Where topics and positions are kept. The embedded default passes `createPostgresBusLog`, so that what
   * was published survives a restart or a crash; without it (tests) they live in memory and die with it.
   */
  log?: BusLog;
  /** Backoff after a failed read or commit of the log (its database away). */
  logRetry?: BackoffOptions;
}

/**
 * Messages read from the log at once by one consumer: given to its batch handler together and committed
 * once, or delivered and committed one by one.
 */
const READ_BATCH = MAX_HANDLER_BATCH;

/**
 * The event bus of the embedded all-in-one mode, with Kafka's semantics (see event-bus.ts) over a BusLog: a
 * topic is one ordered log (a single partition: total order is a superset of Kafka's per-key order), a
 * group's position on it moves only after the handler of the message before resolved, a failing handler
 * gets the same message again, and delivery happens on a later turn of the event loop. Like a Kafka
 * partition, a topic is consumed by one member of a group at a time in this process; other members stand
 * by and take over from the committed position when it stops.
 */
export function createInProcessEventBus(options: InProcessEventBusOptions): EventBus {
  const logger = withComponent(options.logger, 'event-bus');
  const log = options.log ?? createMemoryBusLog();
  const changed = new ChangeSignal();
  const owners = new Map<string, symbol>();
  const subscriptions = new Set<Subscription>();
  let closed = false;
  log.watch(() => changed.notify());

  const consumeTopic = async (
    groupId: string,
    topic: string,
    { handler, batchHandler }: Pick<SubscribeOptions, 'handler' | 'batchHandler'>,
    stopping: AbortSignal,
  ): Promise<void> => {
    const member = Symbol(groupId);
    const slot = JSON.stringify([groupId, topic]);
    let next: number | undefined; // the offset to deliver next, known once this member owns the topic
    let failures = 0;
    try {
      while (!stopping.aborted) {
        const seen = changed.current;
        if (!owners.has(slot)) owners.set(slot, member);
        if (owners.get(slot) !== member) {
          await changed.waitSince(seen);
          continue;
        }
        let batch: LoggedMessage[] = [];
        try {
          next ??= await log.position(groupId, topic);
          batch = await log.read(topic, next, READ_BATCH);
          await nextTurn(); // asynchronous delivery, and no starving of I/O while a backlog drains
          if (batchHandler && batch.length > 1 && (await deliverBatch(batch))) {
            await log.commit(groupId, topic, batch[batch.length - 1]!.offset + 1);
            next = batch[batch.length - 1]!.offset + 1;
          } else {
            for (const [i, message] of batch.entries()) {
              if (i > 0) await nextTurn();
              if (!(await deliver(message))) break; // stopping
              await log.commit(groupId, topic, message.offset + 1);
              next = message.offset + 1;
            }
          }
          failures = 0;
        } catch (err) {
          // The log is away: the message whose commit failed is delivered again (at-least-once).
          failures += 1;
          logger.warn({ err, groupId, topic, failures }, 'event log unavailable; retrying after a pause');
          await sleep(
            backoffDelay(failures, options.logRetry ?? { initialMs: 200, maxMs: 10_000 }),
            stopping,
          );
          continue;
        }
        if (batch.length === 0) await changed.waitSince(seen, log.pollIntervalMs);
      }
    } finally {
      if (owners.get(slot) === member) {
        owners.delete(slot);
        changed.notify(); // a standby member of the group takes over
      }
    }

    /** All of them through the batch handler, at most once: false when it failed (or the bus is stopping). */
    async function deliverBatch(messages: LoggedMessage[]): Promise<boolean> {
      if (stopping.aborted) return false;
      try {
        await batchHandler!(messages.map((m) => delivered(topic, m)));
        return true;
      } catch (err) {
        logger.debug(
          { err, groupId, topic, size: messages.length },
          'batch handler failed; handling its messages one at a time',
        );
        return false;
      }
    }

    async function deliver(message: LoggedMessage): Promise<boolean> {
      for (let failures = 0; !stopping.aborted;) {
        try {
          await handler(delivered(topic, message));
          return true;
        } catch (err) {
          failures += 1;
          logger.warn(
            { err, groupId, topic, offset: message.offset, failures },
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
      await log.ensureTopics(names);
    },

    async publish(messages: BusMessage[]): Promise<void> {
      if (closed) throw new Error('event bus is closed');
      if (messages.length === 0) return;
      await log.append(messages);
      changed.notify();
    },

    async subscribe({
      groupId,
      topics: names,
      fromBeginning = false,
      handler,
      batchHandler,
    }: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('event bus is closed');
      await log.join(groupId, names, fromBeginning);
      const stopping = new AbortController();
      const loops = names.map((name) =>
        consumeTopic(groupId, name, { handler, batchHandler }, stopping.signal).catch((err: unknown) => {
          logger.error({ err, groupId, topic: name }, 'in-process consumer stopped unexpectedly');
        }),
      );
      let stopped: Promise<void> | undefined;
      const subscription: Subscription = {
        stop: () => {
          stopping.abort();
          changed.notify(); // wakes the loops so that they see the abort
          stopped ??= Promise.all(loops).then(() => {
            log.release(groupId, names);
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
      await log.close();
    },
  };
}
