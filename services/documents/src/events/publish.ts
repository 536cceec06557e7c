import { documentsEventsV1 } from '@eligo/proto';
import { outboxWriter, type Knex } from '@eligo/runtime';

/**
 * The documents service's domain events (events.proto), written to the outbox in the caller's transaction so
 * that they commit with the change they announce. Keyed by the verification id (the aggregate the verification
 * service orders by); ids and outcomes only, never a file name.
 */
type Trx = Knex.Transaction;

const enqueue = outboxWriter<keyof typeof documentsEventsV1>('documents');

const { DocumentsSubmitted, ReviewCompleted } = documentsEventsV1;

export const documentsSubmitted = (trx: Trx, schema: string, e: documentsEventsV1.DocumentsSubmitted) =>
  enqueue(trx, schema, 'DocumentsSubmitted', DocumentsSubmitted, e.verificationId, e);
export const reviewCompleted = (trx: Trx, schema: string, e: documentsEventsV1.ReviewCompleted) =>
  enqueue(trx, schema, 'ReviewCompleted', ReviewCompleted, e.verificationId, e);
