import type { Transaction } from '@eligo/runtime';
import type { Db } from '../repository/db';

/** One use of a subject token: its jti within the program, kept until the token could no longer verify. */
export interface SubjectTokenUse {
  programId: string;
  jti: string;
  expiresAt: Date;
  /** The request that used it: its retry (same request id) is answered, not refused as a replay. */
  requestId?: string;
}

const TABLE = 'used_subject_tokens';

/**
 * Rows of expired tokens each recorded use deletes: more than the one it adds, so the table holds about the
 * live tokens only, with no job to run. SKIP LOCKED: a use never waits on rows another submission is deleting.
 */
const PURGE_BATCH = 10;

/** Whether a request other than `use.requestId` already used the token (read-only: the preflight's check). */
export async function usedByAnother(db: Db, use: SubjectTokenUse): Promise<boolean> {
  const row = await db(TABLE)
    .where({ program_id: use.programId, jti: use.jti })
    .first<{ request_id: string | null } | undefined>('request_id');
  return row !== undefined && !(use.requestId && row.request_id === use.requestId);
}

/**
 * Records the use in the submission's transaction; false when the token was already used. A concurrent use of
 * the same jti waits on the unique key until the first transaction ends: it is refused if that one committed,
 * and records the use if it rolled back (a submission refused with nothing stored does not use up the token).
 */
export async function recordUse(trx: Transaction, use: SubjectTokenUse, now: Date): Promise<boolean> {
  await trx(TABLE)
    .whereIn(
      ['program_id', 'jti'],
      trx(TABLE)
        .select('program_id', 'jti')
        .where('expires_at', '<', now)
        .orderBy('expires_at')
        .limit(PURGE_BATCH)
        .forUpdate()
        .skipLocked(),
    )
    .delete();
  const inserted = await trx(TABLE)
    .insert({
      program_id: use.programId,
      jti: use.jti,
      expires_at: use.expiresAt,
      request_id: use.requestId || null,
    })
    .onConflict(['program_id', 'jti'])
    .ignore()
    .returning('jti');
  return inserted.length === 1;
}
