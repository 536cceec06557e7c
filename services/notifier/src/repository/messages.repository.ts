import type { PageCursor } from '../domain/page';
import type { Db } from './db';

export type MessageChannel = 'EMAIL' | 'SMS';
export type MessageStatus = 'pending' | 'sent' | 'captured' | 'failed';

export interface MessageRecord {
  id: string;
  requestId: string;
  programId: string;
  channel: MessageChannel;
  /** Encrypted; bound to the message id. */
  recipientEncrypted: Buffer;
  subject: string;
  body: string;
  bodyHtml: string;
  status: MessageStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lockedUntil: Date | null;
  createdAt: Date;
  sentAt: Date | null;
  error: string | null;
}

interface Row {
  id: string;
  request_id: string;
  program_id: string;
  channel: MessageChannel;
  recipient_encrypted: Buffer;
  subject: string;
  body: string;
  body_html: string;
  status: MessageStatus;
  attempts: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  created_at: Date;
  sent_at: Date | null;
  error: string | null;
}

const toRecord = (r: Row): MessageRecord => ({
  id: r.id,
  requestId: r.request_id,
  programId: r.program_id,
  channel: r.channel,
  recipientEncrypted: r.recipient_encrypted,
  subject: r.subject,
  body: r.body,
  bodyHtml: r.body_html,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lockedUntil: r.locked_until,
  createdAt: r.created_at,
  sentAt: r.sent_at,
  error: r.error,
});

export type NewMessage = Pick<
  MessageRecord,
  | 'id'
  | 'requestId'
  | 'programId'
  | 'channel'
  | 'recipientEncrypted'
  | 'subject'
  | 'body'
  | 'bodyHtml'
  | 'createdAt'
>;

/** Pending, due at once. False when the request already has its message (a redelivered event). */
export async function insertMessage(db: Db, m: NewMessage): Promise<boolean> {
  const rows: unknown[] = await db('messages')
    .insert({
      id: m.id,
      request_id: m.requestId,
      program_id: m.programId,
      channel: m.channel,
      recipient_encrypted: m.recipientEncrypted,
      subject: m.subject,
      body: m.body,
      body_html: m.bodyHtml,
      status: 'pending',
      attempts: 0,
      next_attempt_at: m.createdAt,
      created_at: m.createdAt,
    })
    .onConflict('request_id')
    .ignore()
    .returning('id');
  return rows.length > 0;
}

/** Leases due pending messages until `lockedUntil` (as deliveries: replicas share, a crash's lease expires). */
export async function claimDueMessages(
  db: Db,
  now: Date,
  lockedUntil: Date,
  limit: number,
): Promise<MessageRecord[]> {
  const rows: Row[] = await db('messages')
    .whereIn(
      'id',
      db('messages')
        .select('id')
        .where({ status: 'pending' })
        .where('next_attempt_at', '<=', now)
        .where((q) => q.whereNull('locked_until').orWhere('locked_until', '<', now))
        .orderBy('next_attempt_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .update({ locked_until: lockedUntil })
    .returning('*');
  return rows.map(toRecord);
}

export interface MessageUpdate {
  status: MessageStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  sentAt?: Date;
  error: string | null;
}

export async function updateMessage(db: Db, id: string, u: MessageUpdate): Promise<void> {
  await db('messages')
    .where({ id })
    .update({
      status: u.status,
      attempts: u.attempts,
      next_attempt_at: u.nextAttemptAt,
      locked_until: null,
      error: u.error,
      ...(u.sentAt === undefined ? {} : { sent_at: u.sentAt }),
    });
}

/** A page of messages, newest first, before the cursor; only one request's when it is given. */
export async function listMessages(
  db: Db,
  filter: { requestId: string | undefined },
  limit: number,
  before: PageCursor | undefined,
): Promise<MessageRecord[]> {
  const query = db('messages');
  if (filter.requestId !== undefined) query.where({ request_id: filter.requestId });
  if (before) query.whereRaw('(created_at, id) < (?, ?)', [before.createdAt, before.id]);
  const rows: Row[] = await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select('*');
  return rows.map(toRecord);
}
