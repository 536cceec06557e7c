import type { Knex } from '@eligo/runtime';

/** Repositories run on the module's pool or inside a use case's transaction alike. */
export type Db = Knex | Knex.Transaction;

/**
 * A piece of SQL with its `?` bindings in text order, so that fragments compose without counting
 * placeholders by hand.
 */
export interface Sql {
  text: string;
  bindings: Knex.Value[];
}

export function sql(text: string, ...bindings: Knex.Value[]): Sql {
  return { text, bindings };
}

/** Joins fragments with a separator, keeping bindings in order. */
export function joinSql(parts: readonly Sql[], separator: string): Sql {
  return { text: parts.map((p) => p.text).join(separator), bindings: parts.flatMap((p) => p.bindings) };
}
