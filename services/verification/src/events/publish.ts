import { verificationEventsV1 } from '@eligo/proto';
import { outboxWriter, type Knex } from '@eligo/runtime';

/**
 * The verification service's domain events (events.proto), written to the outbox in the caller's
 * transaction so that they commit with the change they announce. Keyed by the verification id; ids, steps
 * and outcomes only, never the person's data.
 */
type Trx = Knex.Transaction;

const enqueue = outboxWriter<keyof typeof verificationEventsV1>('verification');

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
