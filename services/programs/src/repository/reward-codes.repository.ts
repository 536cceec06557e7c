import type { Db } from './db';

/** The unique index that makes one verification hold at most one code of a program. */
export const CLAIMED_BY_CONSTRAINT = 'reward_codes_claimed_by_key';

/** Adds codes in one multi-row insert; codes already in the pool are skipped. Returns how many were new. */
export async function insertRewardCodes(
  db: Db,
  programId: string,
  codes: readonly string[],
): Promise<number> {
  if (codes.length === 0) return 0;
  const rows = await db
    .table('reward_codes')
    .insert(codes.map((code) => ({ program_id: programId, code })))
    .onConflict(['program_id', 'code'])
    .ignore()
    .returning('id');
  return rows.length;
}

export async function countUnclaimed(db: Db, programId: string): Promise<number> {
  const [row] = (await db
    .table('reward_codes')
    .where({ program_id: programId })
    .whereNull('claimed_by')
    .count({ n: '*' })) as { n: string }[];
  return Number(row?.n ?? 0);
}

export async function findClaimedCode(
  db: Db,
  programId: string,
  verificationId: string,
): Promise<string | undefined> {
  const row = (await db
    .table('reward_codes')
    .where({ program_id: programId, claimed_by: verificationId })
    .first('code')) as { code: string } | undefined;
  return row?.code;
}

/**
 * Hands the lowest unclaimed code to the verification in one statement. SKIP LOCKED lets concurrent claims
 * take different rows instead of queueing on the same one; undefined means no unlocked unclaimed row was
 * found (the pool is empty, or every remaining row is being claimed right now).
 *
 * `program_id = any(array[id])` with `order by program_id, id` is deliberate: with a plain equality the planner
 * may walk the primary key in id order, assuming a program's codes are spread evenly, and filter its way
 * through every code uploaded before this program's (measured: 40 000 rows per claim). In this form only the
 * partial index on unclaimed codes (program_id, id) gives the order, so each claim reads one index entry.
 */
export async function claimNextCode(
  db: Db,
  programId: string,
  verificationId: string,
): Promise<string | undefined> {
  const result = await db.raw<{ rows: { code: string }[] }>(
    `update reward_codes set claimed_by = ?, claimed_at = now()
      where id = (select id from reward_codes
                   where program_id = any(?::text[]) and claimed_by is null
                   order by program_id, id limit 1 for update skip locked)
      returning code`,
    [verificationId, [programId]],
  );
  return result.rows[0]?.code;
}
