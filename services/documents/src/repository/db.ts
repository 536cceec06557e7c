import type { Queryable } from '@eligo/runtime';

/** Repositories run on the module's pool or inside a use case's transaction (knex's or inTransaction's) alike. */
export type Db = Queryable;
