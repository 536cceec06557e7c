import { documentsEventsV1 } from '@eligo/proto';
import { enqueueEvent, type Knex } from '@eligo/runtime';

/**
 * The documents service's domain events (events.proto), written to the outbox in the caller's transaction so
 * that they commit with the change they announce. Keyed by the verification id (the aggregate the verification
 * service orders by); ids and outcomes only, never a file name.
 */
type Trx = Knex.Transaction;

interface EventCodec<T> {
  encode(message: T): { finish(): Uint8Array };
}

async function enqueue<T>(
  trx: Trx,
  schema: string,
  eventName: keyof typeof documentsEventsV1,
  codec: EventCodec<T>,
  verificationId: string,
  message: T,
): Promise<void> {
  const payload = codec.encode(message).finish();
  await enqueueEvent(trx, schema, { service: 'documents', eventName, subject: verificationId, payload });
}

const { DocumentsSubmitted, ReviewCompleted } = documentsEventsV1;

export const documentsSubmitted = (trx: Trx, schema: string, e: documentsEventsV1.DocumentsSubmitted) =>
  enqueue(trx, schema, 'DocumentsSubmitted', DocumentsSubmitted, e.verificationId, e);
export const reviewCompleted = (trx: Trx, schema: string, e: documentsEventsV1.ReviewCompleted) =>
  enqueue(trx, schema, 'ReviewCompleted', ReviewCompleted, e.verificationId, e);
