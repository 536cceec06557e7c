import { randomUUID } from 'node:crypto';
import type { Knex, Transaction } from '@eligo/runtime';

type Db = Knex | Transaction;

export type PiiAction = 'REQUESTED' | 'DOWNLOADED';

export interface PiiAccess {
  id: string;
  accountId: string;
  tokenId: string;
  reportId: string;
  action: PiiAction;
  reason: string;
  occurredAt: Date;
}

export async function recordPiiAccess(
  db: Db,
  schema: string,
  a: Omit<PiiAccess, 'id' | 'occurredAt'>,
): Promise<void> {
  await db
    .withSchema(schema)
    .table('pii_access_log')
    .insert({
      id: randomUUID(),
      account_id: a.accountId,
      token_id: a.tokenId,
      report_id: a.reportId,
      action: a.action,
      reason: a.reason,
      // Milliseconds, as page tokens carry the time: a token then names an entry exactly.
      occurred_at: db.raw(`date_trunc('milliseconds', now())`),
    });
}

/** Newest first, keyset-paged on (occurred_at, id); accountId undefined = every account (operators). */
export async function listPiiAccess(
  db: Db,
  schema: string,
  q: { accountId?: string; limit: number; after?: { occurredAt: Date; id: string } },
): Promise<PiiAccess[]> {
  const query = db.withSchema(schema).table('pii_access_log');
  if (q.accountId) query.where('account_id', q.accountId);
  if (q.after) query.whereRaw('(occurred_at, id) < (?, ?)', [q.after.occurredAt, q.after.id]);
  const rows = await query
    .orderBy([
      { column: 'occurred_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(q.limit);
  return rows.map((r: Record<string, unknown>) => ({
    id: r.id as string,
    accountId: r.account_id as string,
    tokenId: r.token_id as string,
    reportId: r.report_id as string,
    action: r.action as PiiAction,
    reason: r.reason as string,
    occurredAt: r.occurred_at as Date,
  }));
}
