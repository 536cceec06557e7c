import { enqueueEvent, type OutboxEvent, type Transaction } from '@eligo/runtime';
import { metadataKeys } from '../domain';
import * as events from '../events/publish';
import type { VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';

type Announced = Pick<VerificationRecord, 'id' | 'programId' | 'accountId' | 'testMode'>;

/**
 * VerificationMetadataChanged for metadata stored with it. Keys only: the values are the integrator's and may
 * hold personal information, which events never carry.
 */
export function metadataChangedEvent(
  ctx: AppContext,
  record: Announced,
  metadata: Record<string, string>,
): OutboxEvent {
  return events.metadataChanged({
    verificationId: record.id,
    programId: record.programId,
    accountId: record.accountId,
    keys: metadataKeys(metadata),
    testMode: record.testMode,
    occurredAt: ctx.now(),
  });
}

/** metadataChangedEvent recorded in the transaction that stores the metadata. */
export function metadataChanged(
  trx: Transaction,
  ctx: AppContext,
  record: Announced,
  metadata: Record<string, string>,
): Promise<string> {
  return enqueueEvent(trx, ctx.schema, metadataChangedEvent(ctx, record, metadata));
}
