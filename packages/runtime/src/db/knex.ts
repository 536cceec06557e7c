import knexFactory, { type Knex } from 'knex';

export type { Knex } from 'knex';

export interface DbOptions {
  url: string;
  /** The service's own schema: every query of the module runs with search_path set to it. */
  schema: string;
  poolMax: number;
  /** Shows up in pg_stat_activity, so operators can tell which module holds connections. */
  applicationName: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name "${schema}"`);
}

/** A knex instance (its own pool) for one module's schema. */
export function createDb(options: DbOptions): Knex {
  assertSchemaName(options.schema);
  return knexFactory({
    client: 'pg',
    connection: { connectionString: options.url, application_name: options.applicationName },
    searchPath: [options.schema],
    pool: { min: 0, max: options.poolMax, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: 10_000,
  });
}

/** True when the database answers; used by module readiness. */
export async function pingDb(db: Knex): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
