import type { Knex } from '@eligo/runtime';
import { metadataKeys } from '../domain';
import * as events from '../events/publish';
import type { VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';

/**
 * VerificationMetadataChanged for metadata stored in the same transaction. Keys only: the values are the
 * integrator's and may hold personal information, which events never carry.
 */
export function metadataChanged(
  trx: Knex.Transaction,
  ctx: AppContext,
  record: Pick<VerificationRecord, 'id' | 'programId' | 'accountId' | 'testMode'>,
  metadata: Record<string, string>,
): Promise<string> {
  return events.metadataChanged(trx, ctx.schema, {
    verificationId: record.id,
    programId: record.programId,
    accountId: record.accountId,
    keys: metadataKeys(metadata),
    testMode: record.testMode,
    occurredAt: ctx.now(),
  });
}
