import { notifierEventsV1 } from '@eligo/proto';
import { outboxWriter, type Transaction } from '@eligo/runtime';

/**
 * The notifier's domain events (events.proto), written to the outbox in the caller's transaction so that
 * they commit with the change they announce. Keyed by the program id; ids and reasons only.
 */
const enqueue = outboxWriter<keyof typeof notifierEventsV1>('notifier');

export const webhookDisabled = (trx: Transaction, schema: string, e: notifierEventsV1.WebhookDisabled) =>
  enqueue(trx, schema, 'WebhookDisabled', notifierEventsV1.WebhookDisabled, e.programId, e);
