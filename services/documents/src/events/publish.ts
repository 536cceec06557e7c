import { documentsEventsV1 } from '@eligo/proto';
import { outboxEvent, outboxWriter, type OutboxEvent, type Transaction } from '@eligo/runtime';

/**
 * The documents service's domain events (events.proto), written to the outbox in the caller's transaction so
 * that they commit with the change they announce. Keyed by the verification id (the aggregate the verification
 * service orders by); ids and outcomes only, never a file name.
 */
const enqueue = outboxWriter<keyof typeof documentsEventsV1>('documents');
const event = outboxEvent<keyof typeof documentsEventsV1>('documents');

const { DocumentsSubmitted, ReviewCompleted } = documentsEventsV1;

/** The events, encoded, for a write that records them with its change (writeWithEvents). */
export const documentsSubmittedEvent = (e: documentsEventsV1.DocumentsSubmitted): OutboxEvent =>
  event('DocumentsSubmitted', DocumentsSubmitted, e.verificationId, e);
export const reviewCompletedEvent = (e: documentsEventsV1.ReviewCompleted): OutboxEvent =>
  event('ReviewCompleted', ReviewCompleted, e.verificationId, e);

export const reviewCompleted = (trx: Transaction, schema: string, e: documentsEventsV1.ReviewCompleted) =>
  enqueue(trx, schema, 'ReviewCompleted', ReviewCompleted, e.verificationId, e);
