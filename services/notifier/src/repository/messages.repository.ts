import type { PageCursor } from '../domain/page';
import type { Db } from './db';

export type MessageChannel = 'EMAIL' | 'SMS';
export type MessageStatus = 'pending' | 'sent' | 'captured' | 'failed';
/** SEND_LINK: a program's verification link (SendLinkRequested). EMAIL_LOOP: a one-time code (issue 22). */
export type MessageKind = 'SEND_LINK' | 'EMAIL_LOOP';

export interface MessageRecord {
  id: string;
  kind: MessageKind;
  /** The send-link request, or the send_id of an email-loop code: one message each. */
  requestId: string;
  programId: string;
  /** The verification of an email-loop message; null for a send-link one. */
  verificationId: string | null;
  channel: MessageChannel;
  /** Encrypted; bound to the message id. */
  recipientEncrypted: Buffer;
  subject: string;
  /** The text; empty when it is sealed (bodyEncrypted). */
  body: string;
  bodyHtml: string;
  /**
   * The text and HTML encrypted (purpose notifier.message-body, bound to the message id), for a message that
   * holds a credential (EMAIL_LOOP); null otherwise.
   */
  bodyEncrypted: Buffer | null;
  bodyHtmlEncrypted: Buffer | null;
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
  kind: MessageKind;
  request_id: string;
  program_id: string;
  verification_id: string | null;
  channel: MessageChannel;
  recipient_encrypted: Buffer;
  subject: string;
  body: string;
  body_html: string;
  body_encrypted: Buffer | null;
  body_html_encrypted: Buffer | null;
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
  kind: r.kind,
  requestId: r.request_id,
  programId: r.program_id,
  verificationId: r.verification_id,
  channel: r.channel,
  recipientEncrypted: r.recipient_encrypted,
  subject: r.subject,
  body: r.body,
  bodyHtml: r.body_html,
  bodyEncrypted: r.body_encrypted,
  bodyHtmlEncrypted: r.body_html_encrypted,
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
> &
  Partial<Pick<MessageRecord, 'kind' | 'verificationId' | 'bodyEncrypted' | 'bodyHtmlEncrypted'>> & {
    /** 'pending' (the default): due at once. 'captured': kept as it is, never sent (a test-mode code). */
    status?: 'pending' | 'captured';
  };

/**
 * Pending and due at once, or captured (never sent). False when the request already has its message (a
 * redelivered event).
 */
export async function insertMessage(db: Db, m: NewMessage): Promise<boolean> {
  const status = m.status ?? 'pending';
  const rows: unknown[] = await db('messages')
    .insert({
      id: m.id,
      kind: m.kind ?? 'SEND_LINK',
      request_id: m.requestId,
      program_id: m.programId,
      verification_id: m.verificationId ?? null,
      channel: m.channel,
      recipient_encrypted: m.recipientEncrypted,
      subject: m.subject,
      body: m.body,
      body_html: m.bodyHtml,
      body_encrypted: m.bodyEncrypted ?? null,
      body_html_encrypted: m.bodyHtmlEncrypted ?? null,
      status,
      attempts: 0,
      next_attempt_at: status === 'pending' ? m.createdAt : null,
      created_at: m.createdAt,
    })
    .onConflict('request_id')
    .ignore()
    .returning('id');
  return rows.length > 0;
}

/** Whether the request (or email-loop send) already has its message. */
export async function messageExists(db: Db, requestId: string): Promise<boolean> {
  const row: unknown = await db('messages').where({ request_id: requestId }).first('id');
  return row !== undefined;
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

/**
 * A page of messages, newest first, before the cursor; only one request's, or one verification's, when given
 * (both: those of both). The whole list walks messages_created_idx, a verification's messages
 * messages_verification_idx.
 */
export async function listMessages(
  db: Db,
  filter: { requestId: string | undefined; verificationId: string | undefined },
  limit: number,
  before: PageCursor | undefined,
): Promise<MessageRecord[]> {
  const query = db('messages');
  if (filter.requestId !== undefined) query.where({ request_id: filter.requestId });
  if (filter.verificationId !== undefined) query.where({ verification_id: filter.verificationId });
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
