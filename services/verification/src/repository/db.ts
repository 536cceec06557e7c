import type { Queryable } from '@eligo/runtime';

/** Repositories run on the module's pool or inside a use case's transaction alike. */
export type Db = Queryable;
