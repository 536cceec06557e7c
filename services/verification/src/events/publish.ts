import { verificationEventsV1 } from '@eligo/proto';
import { enqueueEvent, type Knex } from '@eligo/runtime';

/**
 * The verification service's domain events (events.proto), written to the outbox in the caller's
 * transaction so that they commit with the change they announce. Keyed by the verification id; ids, steps
 * and outcomes only, never the person's data.
 */
type Trx = Knex.Transaction;

interface EventCodec<T> {
  encode(message: T): { finish(): Uint8Array };
}

async function enqueue<T>(
  trx: Trx,
  schema: string,
  eventName: keyof typeof verificationEventsV1,
  codec: EventCodec<T>,
  verificationId: string,
  message: T,
): Promise<void> {
  const payload = codec.encode(message).finish();
  await enqueueEvent(trx, schema, { service: 'verification', eventName, subject: verificationId, payload });
}

const {
  VerificationCreated,
  VerificationStepChanged,
  VerificationSucceeded,
  VerificationExpired,
  VerificationLimitExceeded,
  WebhooksRefireRequested,
} = verificationEventsV1;

export const created = (trx: Trx, schema: string, e: verificationEventsV1.VerificationCreated) =>
  enqueue(trx, schema, 'VerificationCreated', VerificationCreated, e.verificationId, e);
export const stepChanged = (trx: Trx, schema: string, e: verificationEventsV1.VerificationStepChanged) =>
  enqueue(trx, schema, 'VerificationStepChanged', VerificationStepChanged, e.verificationId, e);
export const succeeded = (trx: Trx, schema: string, e: verificationEventsV1.VerificationSucceeded) =>
  enqueue(trx, schema, 'VerificationSucceeded', VerificationSucceeded, e.verificationId, e);
export const expired = (trx: Trx, schema: string, e: verificationEventsV1.VerificationExpired) =>
  enqueue(trx, schema, 'VerificationExpired', VerificationExpired, e.verificationId, e);
export const limitExceeded = (trx: Trx, schema: string, e: verificationEventsV1.VerificationLimitExceeded) =>
  enqueue(trx, schema, 'VerificationLimitExceeded', VerificationLimitExceeded, e.verificationId, e);
export const refireRequested = (trx: Trx, schema: string, e: verificationEventsV1.WebhooksRefireRequested) =>
  enqueue(trx, schema, 'WebhooksRefireRequested', WebhooksRefireRequested, e.verificationId, e);
