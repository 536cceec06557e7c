import knexFactory, { type Knex } from 'knex';
import type { Logger } from 'pino';
import { preparingPgDialect } from './prepared-statements';

export type { Knex } from 'knex';

export interface DbOptions {
  url: string;
  /** The service's own schema: every query of the module runs with search_path set to it. */
  schema: string;
  poolMax: number;
  /** Shows up in pg_stat_activity, so operators can tell which module holds connections. */
  applicationName: string;
  /** Name (prepare) the statements that take parameters (db/prepared-statements.ts); default true. */
  preparedStatements?: boolean;
  /**
   * Where the client's own warnings go (a connection that could not be acquired, a deprecation). Without one,
   * knex writes them to the console, outside the JSON log.
   */
  logger?: Logger;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name "${schema}"`);
}

/** A knex instance (its own pool) for one module's schema. */
export function createDb(options: DbOptions): Knex {
  assertSchemaName(options.schema);
  return knexFactory({
    client: options.preparedStatements === false ? 'pg' : preparingPgDialect(),
    connection: { connectionString: options.url, application_name: options.applicationName },
    searchPath: [options.schema],
    pool: { min: 0, max: options.poolMax, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: 10_000,
    ...(options.logger ? { log: knexLog(options.logger) } : {}),
  });
}

/** knex's log hooks into a module's logger; its debug output (statements with their values) is never kept. */
function knexLog(logger: Logger): Knex.Config['log'] {
  const text = (message: unknown) => (message instanceof Error ? message.message : String(message));
  return {
    warn: (message: unknown) => logger.warn({ component: 'db', detail: text(message) }, 'database client'),
    error: (message: unknown) => logger.error({ component: 'db', detail: text(message) }, 'database client'),
    deprecate: (method: string, alternative: string) =>
      logger.warn(
        { component: 'db', detail: `${method} is deprecated; use ${alternative}` },
        'database client',
      ),
    debug: () => undefined,
  };
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
