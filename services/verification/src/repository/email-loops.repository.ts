import type { Db } from './db';

/** The current email-loop code of a verification (migration 009). */
export interface EmailLoopRecord {
  verificationId: string;
  /** The send the code went out with (EmailLoopCodeIssued.send_id). */
  sendId: string;
  codeHash: Buffer;
  /** The code encrypted for the notifier; null once it is no longer to be mailed. */
  codeSealed: Buffer | null;
  expiresAt: Date;
  /** Codes mailed so far (the first included). */
  sends: number;
  lastSentAt: Date;
  /** Wrong codes submitted since the loop began (a resend does not reset them). */
  wrongCodes: number;
}

interface Row {
  verification_id: string;
  send_id: string;
  code_hash: Buffer;
  code_sealed: Buffer | null;
  expires_at: Date;
  sends: number;
  last_sent_at: Date;
  wrong_codes: number;
}

const fromRow = (r: Row): EmailLoopRecord => ({
  verificationId: r.verification_id,
  sendId: r.send_id,
  codeHash: r.code_hash,
  codeSealed: r.code_sealed,
  expiresAt: r.expires_at,
  sends: r.sends,
  lastSentAt: r.last_sent_at,
  wrongCodes: r.wrong_codes,
});

export async function findEmailLoop(db: Db, verificationId: string): Promise<EmailLoopRecord | undefined> {
  const row = await db<Row>('email_loops').where({ verification_id: verificationId }).first();
  return row ? fromRow(row) : undefined;
}

/** Writes the verification's current code, replacing any earlier one (a resend). */
export async function saveEmailLoop(db: Db, loop: EmailLoopRecord): Promise<void> {
  const row: Row = {
    verification_id: loop.verificationId,
    send_id: loop.sendId,
    code_hash: loop.codeHash,
    code_sealed: loop.codeSealed,
    expires_at: loop.expiresAt,
    sends: loop.sends,
    last_sent_at: loop.lastSentAt,
    wrong_codes: loop.wrongCodes,
  };
  await db('email_loops').insert(row).onConflict('verification_id').merge();
}

export async function countWrongCode(db: Db, verificationId: string): Promise<void> {
  await db('email_loops').where({ verification_id: verificationId }).increment('wrong_codes', 1);
}

/** The code is no longer to be mailed (used, or the step was left): only its hash stays. */
export async function forgetSealedCode(db: Db, verificationId: string): Promise<void> {
  await db('email_loops').where({ verification_id: verificationId }).update({ code_sealed: null });
}
