import type { Knex } from '@eligo/runtime';

/** Repositories run on the module's pool or inside a use case's transaction alike. */
export type Db = Knex | Knex.Transaction;

/** Postgres unique_violation: the constraint that decided a race. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown };
  return e?.code === '23505' && e.constraint === constraint;
}

/** An ILIKE pattern (escape character \, Postgres's default) matching text that contains `text` as it is. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/** A position in a list ordered by (created_at desc, id desc): the last row of the previous page. */
export interface Keyset {
  createdAt: Date;
  id: string;
}

/**
 * Newest first, after `after` (null: from the start), `limit` rows. The row comparison is what the
 * (..., created_at desc, id desc) indexes answer: the scan starts at the position and reads `limit` entries.
 */
export function keysetPage(
  query: Knex.QueryBuilder,
  columns: { createdAt: string; id: string },
  after: Keyset | null,
  limit: number,
): Knex.QueryBuilder {
  if (after) query.whereRaw('(??, ??) < (?, ?)', [columns.createdAt, columns.id, after.createdAt, after.id]);
  return query
    .orderBy([
      { column: columns.createdAt, order: 'desc' },
      { column: columns.id, order: 'desc' },
    ])
    .limit(limit);
}
