import type { Knex } from '@eligo/runtime';

/** Repositories run on the module's pool or inside a use case's transaction alike. */
export type Db = Knex | Knex.Transaction;

/** Postgres unique_violation: the constraint that decided a race. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown };
  return e?.code === '23505' && e.constraint === constraint;
}
