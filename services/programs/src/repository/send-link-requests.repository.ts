import type { Db } from './db';

export interface SendLinkRecord {
  id: string;
  programId: string;
  channel: 'EMAIL' | 'SMS';
  /** Encrypted (programs.send-link-recipient, bound to the id). */
  recipient: Buffer;
  trackingId: string;
  createdAt: Date;
}

interface SendLinkRow {
  id: string;
  program_id: string;
  channel: 'EMAIL' | 'SMS';
  recipient: Buffer;
  tracking_id: string;
  created_at: Date;
}

export async function insertSendLinkRequest(
  db: Db,
  request: Omit<SendLinkRecord, 'createdAt'>,
): Promise<SendLinkRecord> {
  const [row] = (await db
    .table('send_link_requests')
    .insert({
      id: request.id,
      program_id: request.programId,
      channel: request.channel,
      recipient: request.recipient,
      tracking_id: request.trackingId,
    })
    .returning('*')) as SendLinkRow[];
  return toRecord(row!);
}

export async function findSendLinkRequest(db: Db, id: string): Promise<SendLinkRecord | undefined> {
  const row = (await db.table('send_link_requests').where({ id }).first()) as SendLinkRow | undefined;
  return row && toRecord(row);
}

function toRecord(row: SendLinkRow): SendLinkRecord {
  return {
    id: row.id,
    programId: row.program_id,
    channel: row.channel,
    recipient: row.recipient,
    trackingId: row.tracking_id,
    createdAt: row.created_at,
  };
}
