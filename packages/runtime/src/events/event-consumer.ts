import type { Knex } from 'knex';
import type { Logger } from '../logging/logger';
import { withComponent } from './component-logger';
import { InvalidCloudEventError, parseCloudEventHeaders, type CloudEventAttributes } from './cloudevents';
import type { EventCounter } from './counters';
import type { DeliveredMessage, EventBus, Subscription } from './event-bus';
import { handleOnce } from './inbox';
import { assertSchemaName } from './sql-names';

/** The decode half of a ts-proto message (e.g. `verificationEventsV1.VerificationStepChanged`). */
export interface EventDecoder<T> {
  decode(input: Uint8Array): T;
}

export interface EventContext {
  /** The inbox transaction: write the effect through it so that effect and dedupe record commit together. */
  trx: Knex.Transaction;
  event: CloudEventAttributes;
  message: DeliveredMessage;
}

export interface EventHandler {
  decode(input: Uint8Array): unknown;
  handle(payload: unknown, context: EventContext): Promise<void>;
}

/** Pairs a protobuf decoder with a handler typed by it. */
export function eventHandler<T>(
  decoder: EventDecoder<T>,
  handle: (payload: T, context: EventContext) => Promise<void>,
): EventHandler {
  return {
    decode: (input) => decoder.decode(input),
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
}

/**
 * Subscribes with exactly-once effects on top of at-least-once delivery: headers are validated, the payload
 * decoded, and the handler runs inside `handleOnce`. The bus commits the offset only after that transaction
 * committed. A handler error is retried by the bus; a message that can never be processed (invalid headers,
 * undecodable payload) is logged and skipped, because retrying it would stall its partition forever.
 * Event types without a handler are skipped silently: topics carry all of a service's events.
 */
export function createEventConsumer(options: EventConsumerOptions): Promise<Subscription> {
  const { bus, db, name, handlers, onCount } = options;
  const schema = assertSchemaName(options.schema);
  const logger = withComponent(options.logger, 'event-consumer', { consumer: name });
  const labels = { consumer: name };

  const onMessage = async (message: DeliveredMessage): Promise<void> => {
    const where = { topic: message.topic, partition: message.partition, offset: message.offset };
    let event: CloudEventAttributes;
    let payload: unknown;
    let handler: EventHandler | undefined;
    try {
      event = parseCloudEventHeaders(message.headers);
      handler = handlers[event.type];
      if (!handler) {
        onCount?.('inbox_ignored', labels, 1);
        return;
      }
      payload = handler.decode(message.value);
    } catch (err) {
      const problems = err instanceof InvalidCloudEventError ? err.problems : undefined;
      logger.error({ err, problems, ...where }, 'skipping an event that cannot be processed');
      onCount?.('inbox_invalid', labels, 1);
      return;
    }
    const outcome = await handleOnce(db, schema, name, event.id, (trx) =>
      handler.handle(payload, { trx, event, message }),
    );
    onCount?.(outcome === 'applied' ? 'inbox_applied' : 'inbox_duplicates', labels, 1);
    if (outcome === 'duplicate') logger.debug({ ceId: event.id, ...where }, 'duplicate event skipped');
  };

  return bus.subscribe({
    groupId: `eligo.${schema}.${name}`,
    topics: options.topics,
    fromBeginning: options.fromBeginning ?? true,
    handler: onMessage,
  });
}
