import type { Knex } from 'knex';
import type { Transaction } from '../db/transaction';
import type { Logger } from '../logging/logger';
import { withComponent } from './component-logger';
import { InvalidCloudEventError, parseCloudEventHeaders, type CloudEventAttributes } from './cloudevents';
import type { EventCounter } from './counters';
import type { DeliveredMessage, EventBus, Subscription } from './event-bus';
import { handleNew, handleOnce } from './inbox';
import { parkEvent } from './parked-events';
import { inEventSpan } from '../telemetry/trace-context';
import { isTransientFailure } from './transient-failure';
import { assertSchemaName } from './sql-names';

/** The decode half of a ts-proto message (e.g. `verificationEventsV1.VerificationStepChanged`). */
export interface EventDecoder<T> {
  decode(input: Uint8Array): T;
}

export interface EventContext {
  /** The inbox transaction: write the effect through it so that effect and dedupe record commit together. */
  trx: Transaction;
  event: CloudEventAttributes;
  message: DeliveredMessage;
  /**
   * Runs `work` in the transaction once every event it applies was handled, before it commits (in the order
   * registered): a handler collects what the events of a batch write and writes it with one statement. If it
   * throws, the transaction rolls back as if a handler had thrown.
   */
  beforeCommit(work: () => Promise<void>): void;
}

/** The beforeCommit of one transaction: what its handlers registered, run once they all ran. */
function commitHooks(): { register(work: () => Promise<void>): void; run(): Promise<void> } {
  const pending: (() => Promise<void>)[] = [];
  return {
    register: (work) => void pending.push(work),
    async run() {
      // A hook may register another (its work produced more to write): run until none is left.
      for (let work = pending.shift(); work; work = pending.shift()) await work();
    },
  };
}

export interface EventHandler {
  decode(input: Uint8Array): unknown;
  /**
   * Optional: false for an event the handler would do nothing with. Such an event is ignored like one of a type
   * without a handler: no transaction, no inbox row (an event without effect needs no dedupe).
   */
  accepts?(payload: unknown): boolean;
  handle(payload: unknown, context: EventContext): Promise<void>;
}

/**
 * Pairs a protobuf decoder with a handler typed by it; `accepts`, when given, tells the events the handler
 * acts on from those it would do nothing with (EventHandler.accepts).
 */
export function eventHandler<T>(
  decoder: EventDecoder<T>,
  handle: (payload: T, context: EventContext) => Promise<void>,
  accepts?: (payload: T) => boolean,
): EventHandler {
  return {
    decode: (input) => decoder.decode(input),
    ...(accepts && { accepts: (payload: unknown) => accepts(payload as T) }),
    handle: (payload, context) => handle(payload as T, context),
  };
}

export interface EventConsumerOptions {
  bus: EventBus;
  /** The consuming service's knex instance. */
  db: Knex;
  /** The consuming service's schema, which holds its inbox table. */
  schema: string;
  /** Names the inbox consumer; the consumer group is `eligo.<schema>.<name>` so it is unique per service. */
  name: string;
  topics: string[];
  /** Defaults to true: a new consumer (e.g. a projection) wants the history the topics still hold. */
  fromBeginning?: boolean;
  /** By ce_type, e.g. `{ [eventType('verification', 'VerificationStepChanged')]: eventHandler(...) }`. */
  handlers: Readonly<Record<string, EventHandler>>;
  logger: Logger;
  onCount?: EventCounter;
  /**
   * Failures in a row (outages excepted) after which an event is parked and the consumer moves on
   * (ELIGO_EVENT_MAX_ATTEMPTS, default 10).
   */
  maxAttempts?: number;
}

export const defaultMaxAttempts = 10;

type Processed = 'applied' | 'duplicate' | 'ignored' | 'invalid';

/**
 * Subscribes with exactly-once effects on top of at-least-once delivery: headers are validated, the payload
 * decoded, and the handler runs inside `handleOnce`. The bus commits the offset only after that transaction
 * committed. A handler error is retried by the bus; an outage (isTransientFailure) as long as it lasts, any
 * other error `maxAttempts` times in a row, after which the event is parked (parked-events.ts) with its
 * error and the next one is processed: one poisoned event must not stall its partition for every account.
 * A message that can never be processed (invalid headers, undecodable payload) is logged and skipped.
 * Event types without a handler are skipped silently: topics carry all of a service's events.
 */
export function createEventConsumer(options: EventConsumerOptions): Promise<Subscription> {
  const { bus, db, name, onCount } = options;
  const schema = assertSchemaName(options.schema);
  const logger = withComponent(options.logger, 'event-consumer', { consumer: name });
  const labels = { consumer: name };
  const maxAttempts = options.maxAttempts ?? defaultMaxAttempts;
  // Failures in a row per event: the bus redelivers the same message until it is handled, so a count in
  // memory suffices; after a restart the count starts again, which only delays parking.
  const failures = new Map<string, number>();

  const onMessage = async (message: DeliveredMessage): Promise<void> => {
    const where = { topic: message.topic, partition: message.partition, offset: message.offset };
    let outcome: Processed;
    try {
      outcome = await inEventSpan(`eligo.${schema}.${name}`, message, () => processMessage(options, message));
    } catch (err) {
      const ceId = message.headers.ce_id ?? `${message.topic}/${message.partition}/${message.offset}`;
      if (isTransientFailure(err)) throw err;
      const attempts = (failures.get(ceId) ?? 0) + 1;
      if (attempts < maxAttempts) {
        failures.set(ceId, attempts);
        throw err;
      }
      failures.delete(ceId);
      await parkEvent(db, schema, {
        consumer: name,
        ceId,
        ceType: message.headers.ce_type ?? '',
        topic: message.topic,
        partition: message.partition,
        offset: message.offset,
        key: message.key,
        headers: message.headers,
        value: message.value,
        error: errorText(err),
        attempts,
      });
      logger.error({ err, ceId, attempts, ...where }, 'event parked after repeated failures; moving on');
      onCount?.('inbox_parked', labels, 1);
      return;
    }
    failures.delete(message.headers.ce_id ?? '');
    onCount?.(countOf[outcome], labels, 1);
    if (outcome === 'duplicate')
      logger.debug({ ceId: message.headers.ce_id, ...where }, 'duplicate event skipped');
  };

  // All or nothing in one transaction; when it fails the bus hands the same messages to onMessage one by one,
  // which retries, parks and logs each as above.
  const onBatch = async (messages: DeliveredMessage[]): Promise<void> => {
    const outcomes = await processBatch(options, messages);
    outcomes.forEach((outcome, i) => {
      failures.delete(messages[i]!.headers.ce_id ?? '');
      onCount?.(countOf[outcome], labels, 1);
    });
  };

  return bus.subscribe({
    groupId: `eligo.${schema}.${name}`,
    topics: options.topics,
    fromBeginning: options.fromBeginning ?? true,
    handler: onMessage,
    batchHandler: onBatch,
  });
}

const countOf = {
  applied: 'inbox_applied',
  duplicate: 'inbox_duplicates',
  ignored: 'inbox_ignored',
  invalid: 'inbox_invalid',
} as const;

type ConsumerParts = Pick<EventConsumerOptions, 'db' | 'schema' | 'name' | 'handlers' | 'logger'>;

/** A message ready for its handler, or why it has none ('ignored': no handler for its type, or one it does not accept). */
type Prepared =
  | { outcome: 'apply'; event: CloudEventAttributes; handler: EventHandler; payload: unknown }
  | { outcome: 'ignored' }
  | { outcome: 'invalid'; err: unknown };

function prepare(handlers: ConsumerParts['handlers'], message: DeliveredMessage): Prepared {
  try {
    const event = parseCloudEventHeaders(message.headers);
    const handler = handlers[event.type];
    if (!handler) return { outcome: 'ignored' };
    const payload = handler.decode(message.value);
    if (handler.accepts && !handler.accepts(payload)) return { outcome: 'ignored' };
    return { outcome: 'apply', event, handler, payload };
  } catch (err) {
    return { outcome: 'invalid', err };
  }
}

function logInvalid(options: ConsumerParts, message: DeliveredMessage, err: unknown): void {
  const problems = err instanceof InvalidCloudEventError ? err.problems : undefined;
  options.logger.error(
    {
      err,
      problems,
      consumer: options.name,
      topic: message.topic,
      partition: message.partition,
      offset: message.offset,
    },
    'skipping an event that cannot be processed',
  );
}

/**
 * One delivery through the consumer's handler, exactly once per ce_id (the inbox). Shared by the bus and by
 * a replay of a parked event, so that a replay runs exactly what the consumer runs.
 */
export async function processMessage(options: ConsumerParts, message: DeliveredMessage): Promise<Processed> {
  const prepared = prepare(options.handlers, message);
  if (prepared.outcome === 'invalid') logInvalid(options, message, prepared.err);
  if (prepared.outcome !== 'apply') return prepared.outcome;
  const { event, handler, payload } = prepared;
  return handleOnce(options.db, options.schema, options.name, event.id, async (trx) => {
    const hooks = commitHooks();
    await handler.handle(payload, { trx, event, message, beforeCommit: hooks.register });
    await hooks.run();
  });
}

/**
 * Consecutive messages of a partition in one transaction: one inbox statement records every ce_id, then each
 * new event's handler runs in order, each in its own span. The statements a message costs alone (a
 * transaction's BEGIN and COMMIT, its inbox insert, a commit to disk) are paid once per batch. Throws, with
 * nothing applied, if any handler throws; an undecodable message is skipped as processMessage skips it.
 */
export async function processBatch(
  options: ConsumerParts,
  messages: DeliveredMessage[],
): Promise<Processed[]> {
  const prepared = messages.map((m) => prepare(options.handlers, m));
  // Postgres answers a uuid in lower case; a producer may have sent it in upper case.
  const ids = prepared.flatMap((p) => (p.outcome === 'apply' ? [p.event.id.toLowerCase()] : []));
  const outcomes: Processed[] = prepared.map((p) => (p.outcome === 'apply' ? 'duplicate' : p.outcome));
  if (ids.length > 0) {
    await handleNew(options.db, options.schema, options.name, ids, async (fresh, trx) => {
      const hooks = commitHooks();
      for (const [i, p] of prepared.entries()) {
        // A ce_id repeated within the batch (a relay that republished) is applied at its first occurrence.
        if (p.outcome !== 'apply' || !fresh.delete(p.event.id.toLowerCase())) continue;
        const message = messages[i]!;
        await inEventSpan(`eligo.${options.schema}.${options.name}`, message, () =>
          p.handler.handle(p.payload, { trx, event: p.event, message, beforeCommit: hooks.register }),
        );
        outcomes[i] = 'applied';
      }
      await hooks.run();
    });
  }
  prepared.forEach((p, i) => p.outcome === 'invalid' && logInvalid(options, messages[i]!, p.err));
  return outcomes;
}

/** The error as an operator reads it: its class, a code when there is one, the message. Never the payload. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return `${err.name}${code !== undefined ? ` (${String(code)})` : ''}: ${err.message}`;
}
