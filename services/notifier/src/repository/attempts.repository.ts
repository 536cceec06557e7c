import type { Db } from './db';

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  /** 0 when the receiver gave no answer. */
  statusCode: number;
  latencyMs: number;
  error: string | null;
}

interface Row {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  status_code: number;
  latency_ms: number;
  error: string | null;
}

export async function insertAttempt(db: Db, a: AttemptRecord): Promise<void> {
  await db('delivery_attempts').insert({
    delivery_id: a.deliveryId,
    attempt: a.attempt,
    started_at: a.startedAt,
    status_code: a.statusCode,
    latency_ms: a.latencyMs,
    error: a.error,
  });
}

/** The attempts of several deliveries (one query for a page of the log), oldest first. */
export async function attemptsOf(db: Db, deliveryIds: readonly string[]): Promise<AttemptRecord[]> {
  if (deliveryIds.length === 0) return [];
  const rows: Row[] = await db('delivery_attempts')
    .whereIn('delivery_id', deliveryIds)
    .orderBy([{ column: 'delivery_id' }, { column: 'attempt' }])
    .select('*');
  return rows.map((r) => ({
    deliveryId: r.delivery_id,
    attempt: r.attempt,
    startedAt: r.started_at,
    statusCode: r.status_code,
    latencyMs: r.latency_ms,
    error: r.error,
  }));
}
