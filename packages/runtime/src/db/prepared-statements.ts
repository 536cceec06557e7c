import { createRequire } from 'node:module';
import type { Knex } from 'knex';

/**
 * Statements prepared once per connection (a named statement: Postgres parses and plans it at its first run
 * on the connection and only binds and executes it after). Measured on the verification flow: Postgres's CPU
 * per flow fell by about a third (docs/benchmarks.md). knex sends every statement unnamed, so each run was
 * parsed and planned again.
 *
 * Which statements:
 * - only those with parameters (a statement without any, BEGIN or a migration's DDL, is sent as it is);
 * - none that names `*` (`select *`, `returning *`, `"p".*`): a column added by a migration while a process
 *   runs changes such a statement's result, and Postgres refuses to run the prepared one again ("cached plan
 *   must not change result type"). The hot reads name their columns;
 * - at most MAX_PER_CONNECTION distinct ones per connection (each costs the server some memory for as long as
 *   the connection lives); later ones run unnamed.
 * A named statement that fails because its plan went stale anyway (a column's type changed) is prepared under
 * a new name at its next run.
 *
 * ELIGO_DB_PREPARED_STATEMENTS=false turns it off, for a pooler in transaction mode between Eligo and Postgres
 * that does not carry prepared statements from one server connection to another.
 */
const MAX_PER_CONNECTION = 128;
const MAX_TEXT_LENGTH = 16_384;
/**
 * Statement texts whose positioned form is kept: at most this many (all forgotten at once past it), each at most
 * this long (bulk inserts are not kept): a few MB at worst.
 */
const MAX_POSITIONED = 1024;
const MAX_POSITIONED_LENGTH = 4096;
const STALE_PLAN = '0A000';

interface Prepared {
  names: Map<string, string>;
  next: number;
}

interface QueryObject {
  sql: string;
  bindings?: readonly unknown[];
  options?: Record<string, unknown>;
}

type RunQuery = (this: unknown, connection: object, obj: QueryObject) => Promise<unknown>;

const byConnection = new WeakMap<object, Prepared>();

/** The name to run `sql` under on `connection`, or undefined to run it unnamed. */
export function statementName(connection: object, sql: string, bindingCount: number): string | undefined {
  if (bindingCount === 0 || sql.length > MAX_TEXT_LENGTH || sql.includes('*')) return undefined;
  let prepared = byConnection.get(connection);
  if (!prepared) byConnection.set(connection, (prepared = { names: new Map(), next: 0 }));
  const known = prepared.names.get(sql);
  if (known !== undefined) return known;
  if (prepared.names.size >= MAX_PER_CONNECTION) return undefined;
  // Unique on the connection; a statement whose plan went stale gets the next one.
  const name = `eligo_${prepared.next++}`;
  prepared.names.set(sql, name);
  return name;
}

/** Forgets the name of `sql` on `connection`: its next run prepares it again under another. */
export function forgetStatement(connection: object, sql: string): void {
  byConnection.get(connection)?.names.delete(sql);
}

/**
 * knex's Postgres dialect, naming the statements it sends (a class, so that transactions, whose clients knex
 * derives from the dialect's prototype, name theirs too).
 */
export function preparingPgDialect(): typeof Knex.Client {
  // knex publishes no type for its dialect classes, nor for the method that runs a statement.
  const Base = createRequire(__filename)('knex/lib/dialects/postgres') as typeof Knex.Client;
  const run = (Base.prototype as unknown as { _query: RunQuery })._query;
  const position = (Base.prototype as unknown as { positionBindings(sql: string): string }).positionBindings;
  // The same few statements run all the time: knex's `?` to `$n` rewrite (a regular expression and a new
  // string at every run) is kept per text, and the kept string's hash then serves statementName's lookup too.
  const positioned = new Map<string, string>();
  return class PreparingPg extends Base {
    override positionBindings(sql: string): string {
      if (sql.length > MAX_POSITIONED_LENGTH) return position.call(this, sql);
      let out = positioned.get(sql);
      if (out === undefined) {
        out = position.call(this, sql);
        if (positioned.size >= MAX_POSITIONED) positioned.clear();
        positioned.set(sql, out);
      }
      return out;
    }

    async _query(connection: object, obj: QueryObject): Promise<unknown> {
      if (obj.options?.name !== undefined) return run.call(this, connection, obj);
      const name = statementName(connection, obj.sql, obj.bindings?.length ?? 0);
      if (name === undefined) return run.call(this, connection, obj);
      try {
        // knex resolves the object it passed, with the response on it: named in place.
        obj.options = { ...obj.options, name };
        return await run.call(this, connection, obj);
      } catch (err) {
        // 0A000 (feature_not_supported) is what a stale plan answers; forgetting a name is harmless anyway.
        if ((err as { code?: unknown }).code === STALE_PLAN) forgetStatement(connection, obj.sql);
        throw err;
      }
    }
  };
}
