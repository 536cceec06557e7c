import { verificationEventsV1 } from '@eligo/proto';
import { outboxEvent, outboxWriter, type Transaction } from '@eligo/runtime';
import type { VerificationRecord } from '../repository/verifications.repository';

/**
 * The verification service's domain events (events.proto), written to the outbox in the caller's
 * transaction so that they commit with the change they announce. Keyed by the verification id; ids, steps
 * and outcomes only, never the person's data.
 */
type Trx = Transaction;

const enqueue = outboxWriter<keyof typeof verificationEventsV1>('verification');
const event = outboxEvent<keyof typeof verificationEventsV1>('verification');

const {
  VerificationCreated,
  VerificationStepChanged,
  VerificationSucceeded,
  VerificationExpired,
  VerificationLimitExceeded,
  WebhooksRefireRequested,
  VerificationMetadataChanged,
  EmailLoopCodeIssued,
} = verificationEventsV1;

/**
 * The events a start or a step records with its change, as outbox rows of the change's statement (a flow's
 * two requests each announce two events; a statement each was a round trip each).
 */
export const created = (e: verificationEventsV1.VerificationCreated) =>
  event('VerificationCreated', VerificationCreated, e.verificationId, e);
export const stepChanged = (e: verificationEventsV1.VerificationStepChanged) =>
  event('VerificationStepChanged', VerificationStepChanged, e.verificationId, e);
export const succeeded = (e: verificationEventsV1.VerificationSucceeded) =>
  event('VerificationSucceeded', VerificationSucceeded, e.verificationId, e);
export const expired = (trx: Trx, schema: string, e: verificationEventsV1.VerificationExpired) =>
  enqueue(trx, schema, 'VerificationExpired', VerificationExpired, e.verificationId, e);
export const limitExceeded = (trx: Trx, schema: string, e: verificationEventsV1.VerificationLimitExceeded) =>
  enqueue(trx, schema, 'VerificationLimitExceeded', VerificationLimitExceeded, e.verificationId, e);
export const refireRequested = (trx: Trx, schema: string, e: verificationEventsV1.WebhooksRefireRequested) =>
  enqueue(trx, schema, 'WebhooksRefireRequested', WebhooksRefireRequested, e.verificationId, e);
export const metadataChanged = (e: verificationEventsV1.VerificationMetadataChanged) =>
  event('VerificationMetadataChanged', VerificationMetadataChanged, e.verificationId, e);

/**
 * What VerificationStepChanged tells of the verification as it stands after the change, so that the reports
 * service can project it without calling back; empty / 0 for what is not known yet. The organization's name
 * is a catalog institution's, not the person's.
 */
export function stepProjection(
  record: Pick<
    VerificationRecord,
    'subSegment' | 'organizationId' | 'organizationName' | 'verificationMethod'
  >,
): Pick<
  verificationEventsV1.VerificationStepChanged,
  'subSegment' | 'organizationId' | 'organizationName' | 'verificationMethod'
> {
  return {
    subSegment: record.subSegment ?? '',
    organizationId: record.organizationId ?? 0,
    organizationName: record.organizationName ?? '',
    verificationMethod: record.verificationMethod ?? '',
  };
}
export const emailLoopCodeIssued = (trx: Trx, schema: string, e: verificationEventsV1.EmailLoopCodeIssued) =>
  enqueue(trx, schema, 'EmailLoopCodeIssued', EmailLoopCodeIssued, e.verificationId, e);
