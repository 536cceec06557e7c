import type { NotifierEventType } from '../domain/notifications';
import type { PageCursor } from '../domain/page';
import type { Db } from './db';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface DeliveryRecord {
  id: string;
  programId: string;
  accountId: string;
  verificationId: string;
  eventType: NotifierEventType;
  sourceEventId: string;
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lockedUntil: Date | null;
  eventAt: Date;
  createdAt: Date;
  deliveredAt: Date | null;
  refireOf: string | null;
  /** W3C traceparent of the span that made the delivery (tracing on), so its attempts join that trace. */
  traceParent: string | null;
}

/** A deliveries row as Postgres returns it. */
export interface DeliveryRow {
  id: string;
  program_id: string;
  account_id: string;
  verification_id: string;
  event_type: NotifierEventType;
  source_event_id: string;
  body: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  event_at: Date;
  created_at: Date;
  delivered_at: Date | null;
  refire_of: string | null;
  trace_parent: string | null;
}

export const toRecord = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  programId: r.program_id,
  accountId: r.account_id,
  verificationId: r.verification_id,
  eventType: r.event_type,
  sourceEventId: r.source_event_id,
  body: r.body,
  status: r.status,
  attemptCount: r.attempt_count,
  nextAttemptAt: r.next_attempt_at,
  lockedUntil: r.locked_until,
  eventAt: r.event_at,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
  refireOf: r.refire_of,
  traceParent: r.trace_parent,
});

export type NewDelivery = Pick<
  DeliveryRecord,
  | 'id'
  | 'programId'
  | 'accountId'
  | 'verificationId'
  | 'eventType'
  | 'sourceEventId'
  | 'body'
  | 'eventAt'
  | 'createdAt'
  | 'refireOf'
  | 'traceParent'
> & {
  nextAttemptAt: Date;
  /** Set when this process attempts the delivery itself right after the commit (a reserved lease). */
  lockedUntil: Date | null;
};

/** The columns a new delivery sets, with their types (a VALUES list's parameters would otherwise be text). */
const COLUMNS: readonly (readonly [string, string])[] = [
  ['id', 'text'],
  ['program_id', 'varchar'],
  ['account_id', 'varchar'],
  ['verification_id', 'varchar'],
  ['event_type', 'text'],
  ['source_event_id', 'uuid'],
  ['body', 'text'],
  ['status', 'text'],
  ['attempt_count', 'integer'],
  ['next_attempt_at', 'timestamptz'],
  ['locked_until', 'timestamptz'],
  ['event_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['refire_of', 'text'],
  ['trace_parent', 'text'],
];
const NAMES = COLUMNS.map(([name]) => name).join(', ');
const ROW = `(${COLUMNS.map(([, type]) => `?::${type}`).join(', ')})`;

/** Records a pending delivery (insertDeliveries with one); false when nothing was recorded. */
export async function insertDelivery(db: Db, d: NewDelivery): Promise<boolean> {
  return (await insertDeliveries(db, [d])).has(d.id);
}

/**
 * Records pending deliveries, each unless its event already made its delivery of this type (a redelivered
 * event) or its program's endpoint is disabled: one statement for all of them, as it runs for every
 * notification a consumer's transaction applies. Answers the ids recorded.
 */
export async function insertDeliveries(db: Db, deliveries: readonly NewDelivery[]): Promise<Set<string>> {
  if (deliveries.length === 0) return new Set();
  const values = deliveries.flatMap((d) => [
    d.id,
    d.programId,
    d.accountId,
    d.verificationId,
    d.eventType,
    d.sourceEventId,
    d.body,
    'pending',
    0,
    d.nextAttemptAt,
    d.lockedUntil,
    d.eventAt,
    d.createdAt,
    d.refireOf,
    d.traceParent,
  ]);
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `insert into deliveries (${NAMES})
     select * from (values ${deliveries.map(() => ROW).join(', ')}) as d (${NAMES})
      where not exists (select 1 from endpoints e where e.program_id = d.program_id and e.status = 'disabled')
     on conflict (source_event_id, event_type) do nothing
     returning id`,
    values,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Ends every pending delivery of a program (webhook removed: cancelled; endpoint disabled: failed). Leases
 * stay: an attempt in flight still records itself (and a delivery it got through shows as delivered).
 */
export async function endPendingDeliveries(
  db: Db,
  programId: string,
  status: 'failed' | 'cancelled',
): Promise<number> {
  return db('deliveries')
    .where({ program_id: programId, status: 'pending' })
    .update({ status, next_attempt_at: null });
}

/** The latest delivery of each type for a verification of the program (what a refire resends). */
export async function latestDeliveriesOf(
  db: Db,
  programId: string,
  verificationId: string,
): Promise<DeliveryRecord[]> {
  const rows: DeliveryRow[] = await db('deliveries')
    .distinctOn('event_type')
    .where({ verification_id: verificationId, program_id: programId })
    .orderBy([
      { column: 'event_type' },
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('*');
  return rows.map(toRecord);
}

/**
 * A page of a program's deliveries, newest first, before the cursor; with a verification id, only those made
 * for it. The program's page walks deliveries_program_idx; a verification's few deliveries are read through
 * deliveries_verification_idx and sorted.
 */
export async function listDeliveries(
  db: Db,
  q: { programId: string; verificationId: string | null; limit: number; before: PageCursor | undefined },
): Promise<DeliveryRecord[]> {
  const query = db('deliveries').where({ program_id: q.programId });
  if (q.verificationId !== null) void query.where({ verification_id: q.verificationId });
  if (q.before) void query.whereRaw('(created_at, id) < (?, ?)', [q.before.createdAt, q.before.id]);
  const rows: DeliveryRow[] = await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(q.limit)
    .select('*');
  return rows.map(toRecord);
}

/** One delivery of the program, locked until the transaction ends when `lock` is set. */
export async function findDelivery(
  db: Db,
  programId: string,
  id: string,
  lock = false,
): Promise<DeliveryRecord | undefined> {
  const query = db('deliveries').where({ id, program_id: programId }).first<DeliveryRow | undefined>();
  const row = await (lock ? query.forUpdate() : query);
  return row ? toRecord(row) : undefined;
}

/** Whether a resend of the delivery (refire_of it) still waits for an attempt: read through its verification. */
export async function hasPendingResend(db: Db, original: DeliveryRecord): Promise<boolean> {
  const row = await db('deliveries')
    .where({ verification_id: original.verificationId, refire_of: original.id, status: 'pending' })
    .first('id');
  return row !== undefined;
}
