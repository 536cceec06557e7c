// Public surface of the events folder; the runtime index re-exports it.
export type {
  BusMessage,
  DeliveredMessage,
  EnsureTopicsOptions,
  EventBus,
  MessageHandler,
  RetryBackoffOptions,
  SubscribeOptions,
  Subscription,
} from './event-bus';
export { createKafkaEventBus, type KafkaEventBus, type KafkaEventBusOptions } from './kafka-bus';
export { createInProcessEventBus, type InProcessEventBusOptions } from './in-process-bus';
export type { BusLog, LoggedMessage } from './bus-log';
export { createMemoryBusLog } from './memory-bus-log';
export { createPostgresBusLog, DEFAULT_BUS_SCHEMA, type PostgresBusLogOptions } from './postgres-bus-log';
export {
  buildCloudEventHeaders,
  CE_HEADERS,
  CE_SPECVERSION,
  EVENT_CONTENT_TYPE,
  eventSource,
  topicFor,
  eventType,
  InvalidCloudEventError,
  parseCloudEventHeaders,
  type CloudEventAttributes,
  type NewCloudEvent,
} from './cloudevents';
export {
  createOutboxTable,
  deletePublishedOutboxRows,
  dropOutboxTable,
  enqueueEvent,
  enqueueEvents,
  writeWithEvents,
  outboxEvent,
  outboxWriter,
  type EventEncoder,
  type OutboxEvent,
} from './outbox';
export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
export { outboxInboxMigration, serviceBaseMigrations } from './migrations';
export {
  createInboxTable,
  deleteInboxRows,
  dropInboxTable,
  handleNew,
  handleOnce,
  type InboxOutcome,
} from './inbox';
export {
  createEventConsumer,
  eventHandler,
  type EventConsumerOptions,
  type EventContext,
  type EventDecoder,
  type EventHandler,
} from './event-consumer';
export type { EventCounter, EventCounterName } from './counters';
