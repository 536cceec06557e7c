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

/**
 * All the codes of a pool and those not handed out, in one statement: the first count reads the
 * (program_id, code) key, the second the partial index on unclaimed codes.
 */
export async function countPool(db: Db, programId: string): Promise<{ total: number; unused: number }> {
  const result = await db.raw<{ rows: { total: string; unused: string }[] }>(
    `select (select count(*) from reward_codes where program_id = ?) as total,
            (select count(*) from reward_codes where program_id = ? and claimed_by is null) as unused`,
    [programId, programId],
  );
  const row = result.rows[0]!;
  return { total: Number(row.total), unused: Number(row.unused) };
}

/**
 * The code the verification already holds, its claim renewed (claimed_at = now): the verification is
 * asking for it again to succeed, so a release decided on the older claim time must not take it away.
 */
export async function renewClaim(
  db: Db,
  programId: string,
  verificationId: string,
): Promise<string | undefined> {
  const [row] = (await db
    .table('reward_codes')
    .where({ program_id: programId, claimed_by: verificationId })
    .update({ claimed_at: db.fn.now() })
    .returning('code')) as { code: string }[];
  return row?.code;
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

export interface StoredClaim {
  /** The row id: the page position. */
  id: string;
  programId: string;
  verificationId: string;
  rewardCode: string;
  claimedAt: Date;
}

/** Unconfirmed claims made before `claimedBefore`, in id order after `afterId` (all programs without one). */
export async function listUnconfirmedClaims(
  db: Db,
  query: { programId: string | undefined; claimedBefore: Date; afterId: string; limit: number },
): Promise<StoredClaim[]> {
  const q = db
    .table('reward_codes')
    .whereNotNull('claimed_by')
    .whereNull('confirmed_at')
    .where('claimed_at', '<', query.claimedBefore)
    .where('id', '>', query.afterId)
    .orderBy('id')
    .limit(query.limit)
    .modify((builder) => {
      if (query.programId !== undefined) void builder.where({ program_id: query.programId });
    })
    .select({
      id: 'id',
      programId: 'program_id',
      verificationId: 'claimed_by',
      rewardCode: 'code',
      claimedAt: 'claimed_at',
    });
  return (await q) as StoredClaim[];
}

/** A claim as the reconciler names it: the verification and the code it is thought to hold. */
export type ClaimKey = Pick<StoredClaim, 'programId' | 'verificationId' | 'rewardCode'>;

const claimOf = (claim: ClaimKey) => ({
  program_id: claim.programId,
  claimed_by: claim.verificationId,
  code: claim.rewardCode,
});

/** Marks the claim kept for good (already confirmed: unchanged). False when the verification holds no such code. */
export async function confirmClaim(db: Db, claim: ClaimKey): Promise<boolean> {
  const rows = await db
    .table('reward_codes')
    .where(claimOf(claim))
    .update({ confirmed_at: db.raw('coalesce(confirmed_at, now())') })
    .returning('id');
  return rows.length > 0;
}

/**
 * Returns the code to the pool if the claim is still unconfirmed and was made before `claimedBefore`. Postgres
 * re-checks the conditions on a row a concurrent confirm or renewal just changed, so neither is undone.
 */
export async function releaseClaim(db: Db, claim: ClaimKey, claimedBefore: Date): Promise<boolean> {
  const rows = await db
    .table('reward_codes')
    .where(claimOf(claim))
    .whereNull('confirmed_at')
    .where('claimed_at', '<', claimedBefore)
    .update({ claimed_by: null, claimed_at: null })
    .returning('id');
  return rows.length > 0;
}
