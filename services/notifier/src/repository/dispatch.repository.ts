import type { EndpointStatus } from '../domain/endpoint-policy';
import {
  toRecord,
  type DeliveryRecord,
  type DeliveryRow,
  type DeliveryStatus,
} from './deliveries.repository';
import type { Db } from './db';

/**
 * The dispatcher's queries. A dispatcher leases the deliveries it attempts (locked_until); every change it
 * makes afterwards is conditional on still holding that lease, so a dispatcher whose lease expired (it hung,
 * another took over) cannot overwrite the newer record.
 */

export interface ClaimedDelivery extends DeliveryRecord {
  lockedUntil: Date;
  /** The program's endpoint when claimed; undefined before its first attempt was recorded. */
  endpointStatus: EndpointStatus | undefined;
}

/**
 * Leases up to `limit` due deliveries until `lockedUntil`, soonest first. Rows another dispatcher holds (row
 * lock or unexpired lease) are skipped, so replicas share the work; a lease left by a crash expires.
 */
export async function claimDueDeliveries(
  db: Db,
  now: Date,
  lockedUntil: Date,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const { rows } = await db.raw<{ rows: (DeliveryRow & { endpoint_status: EndpointStatus | null })[] }>(
    `update deliveries d set locked_until = ?
      where d.id in (
        select id from deliveries
         where status = 'pending' and next_attempt_at <= ? and (locked_until is null or locked_until < ?)
         order by next_attempt_at
         limit ?
         for update skip locked)
     returning d.*, (select e.status from endpoints e where e.program_id = d.program_id) as endpoint_status`,
    [lockedUntil, now, now, limit],
  );
  return rows.map((r) => ({ ...toRecord(r), lockedUntil, endpointStatus: r.endpoint_status ?? undefined }));
}

export interface AttemptFacts {
  startedAt: Date;
  statusCode: number;
  latencyMs: number;
}

/**
 * A 2xx, recorded in one statement (the path nearly every delivery takes): the delivery delivered, its attempt
 * logged, the endpoint's failure streak ended. A delivery that was ended meanwhile (webhook removed, endpoint
 * disabled) becomes delivered too: the receiver has it. As on the failure path, the endpoint row (if any) is
 * locked before the delivery's, so that this cannot deadlock with an attempt that disables the endpoint and
 * fails the program's pending deliveries. Undefined when the lease was lost.
 */
export async function recordDelivered(
  db: Db,
  delivery: { id: string; programId: string; lockedUntil: Date },
  attempt: AttemptFacts,
  now: Date,
): Promise<{ attempt: number; previous: DeliveryStatus } | undefined> {
  const { rows } = await db.raw<{ rows: { attempt: number; previous: DeliveryStatus }[] }>(
    `with endpoint as materialized (
       select program_id, status, failing_since from endpoints where program_id = ? for update
     ), leased as (
       select d.id, d.status from deliveries d left join endpoint on true
        where d.id = ? and d.locked_until = ? for update of d
     ), done as (
       update deliveries d
          set status = 'delivered', attempt_count = d.attempt_count + 1, delivered_at = ?,
              next_attempt_at = null, locked_until = null
         from leased where d.id = leased.id
       returning d.id, d.attempt_count, leased.status as previous
     ), logged as (
       insert into delivery_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
       select id, attempt_count, ?, ?, ?, null from done
     ), healed as (
       update endpoints set failing_since = null, updated_at = ?
        where program_id in (select program_id from endpoint where status = 'active' and failing_since is not null)
          and exists (select 1 from done)
     )
     select attempt_count as attempt, previous from done`,
    [
      delivery.programId,
      delivery.id,
      delivery.lockedUntil,
      now,
      attempt.startedAt,
      attempt.statusCode,
      attempt.latencyMs,
      now,
    ],
  );
  return rows[0];
}

/** The delivery if this lease still holds it, locked until the transaction ends. */
export async function lockLeasedDelivery(
  db: Db,
  id: string,
  lockedUntil: Date,
): Promise<DeliveryRecord | undefined> {
  const row = await db('deliveries')
    .where({ id, locked_until: lockedUntil })
    .forUpdate()
    .first<DeliveryRow | undefined>();
  return row ? toRecord(row) : undefined;
}

export interface DeliveryUpdate {
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
}

/** Sets the state after a failed attempt and ends the lease. */
export async function updateDelivery(db: Db, id: string, u: DeliveryUpdate): Promise<void> {
  await db('deliveries').where({ id }).update({
    status: u.status,
    attempt_count: u.attemptCount,
    next_attempt_at: u.nextAttemptAt,
    locked_until: null,
  });
}

/** Moves the next attempt without counting one (the webhook could not be looked up); ends the lease. */
export async function postponeDelivery(db: Db, id: string, lockedUntil: Date, at: Date): Promise<void> {
  await db('deliveries')
    .where({ id, status: 'pending', locked_until: lockedUntil })
    .update({ next_attempt_at: at, locked_until: null });
}

/** Ends a leased delivery without an attempt; false when it was no longer pending under this lease. */
export async function endLeasedDelivery(
  db: Db,
  id: string,
  lockedUntil: Date,
  status: 'failed' | 'cancelled',
): Promise<boolean> {
  const count = await db('deliveries')
    .where({ id, status: 'pending', locked_until: lockedUntil })
    .update({ status, next_attempt_at: null, locked_until: null });
  return count > 0;
}
