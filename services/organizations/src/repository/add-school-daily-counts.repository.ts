import type { Db } from './db';

/**
 * Counts one more add-school request for the program today (UTC, by the database clock) unless the limit is
 * reached. One statement: concurrent requests serialise on the row, so the count never passes the limit.
 * Returns false when the limit was already reached (nothing counted).
 */
export async function countAddSchoolRequest(db: Db, programId: string, limit: number): Promise<boolean> {
  const result = await db.raw<{ rows: { count: number }[] }>(
    `insert into add_school_daily_counts as c (program_id, day, count)
     values (?, (now() at time zone 'utc')::date, 1)
     on conflict (program_id, day) do update set count = c.count + 1 where c.count < ?
     returning c.count`,
    [programId, limit],
  );
  return result.rows.length > 0;
}
