import type { DisabledReason, EndpointStatus } from '../domain/endpoint-policy';
import type { Db } from './db';

export interface EndpointRecord {
  programId: string;
  accountId: string;
  status: EndpointStatus;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: DisabledReason | null;
  updatedAt: Date;
}

interface Row {
  program_id: string;
  account_id: string;
  status: EndpointStatus;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: DisabledReason | null;
  updated_at: Date;
}

const toRecord = (r: Row): EndpointRecord => ({
  programId: r.program_id,
  accountId: r.account_id,
  status: r.status,
  failingSince: r.failing_since,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  updatedAt: r.updated_at,
});

/** With `lock`, the row stays locked until the caller's transaction ends. */
export async function findEndpoint(
  db: Db,
  programId: string,
  lock = false,
): Promise<EndpointRecord | undefined> {
  const query = db('endpoints').where({ program_id: programId }).first<Row | undefined>();
  const row = await (lock ? query.forUpdate() : query);
  return row ? toRecord(row) : undefined;
}

/** An endpoint row for a program that has none yet (active); an existing one is left as it is. */
export async function ensureEndpoint(db: Db, programId: string, accountId: string, now: Date): Promise<void> {
  await db('endpoints')
    .insert({ program_id: programId, account_id: accountId, status: 'active', updated_at: now })
    .onConflict('program_id')
    .ignore();
}

/**
 * A (re)configured webhook starts healthy: active, no failure streak. Except that a configuration made before
 * the endpoint was disabled leaves it disabled: its event can arrive after the delivery that disabled it (the
 * events of programs and of verification travel apart), and must not turn back on what its owner has not.
 */
export async function activateEndpoint(
  db: Db,
  programId: string,
  accountId: string,
  configuredAt: Date,
  now: Date,
): Promise<void> {
  const fresh = {
    account_id: accountId,
    status: 'active',
    failing_since: null,
    disabled_at: null,
    disabled_reason: null,
    updated_at: now,
  };
  await db('endpoints')
    .insert({ program_id: programId, ...fresh })
    .onConflict('program_id')
    .merge(fresh)
    .where((q) => q.whereNull('endpoints.disabled_at').orWhere('endpoints.disabled_at', '<=', configuredAt));
}

export async function setFailingSince(
  db: Db,
  programId: string,
  since: Date | null,
  now: Date,
): Promise<void> {
  await db('endpoints').where({ program_id: programId }).update({ failing_since: since, updated_at: now });
}

export async function disableEndpoint(
  db: Db,
  programId: string,
  reason: DisabledReason,
  now: Date,
): Promise<void> {
  await db('endpoints')
    .where({ program_id: programId })
    .update({ status: 'disabled', disabled_at: now, disabled_reason: reason, updated_at: now });
}
