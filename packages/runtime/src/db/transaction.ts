import type { Knex } from 'knex';

/**
 * What a repository needs of a database handle: a module's knex (the pool), a knex transaction, or a
 * transaction of `inTransaction` below. Knex and Knex.Transaction are both Queryable, so a function that takes a
 * Queryable works on any of them.
 */
export interface Queryable {
  // Every table name is a string here; knex's own overloads add typed table maps Eligo does not declare.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- knex's own default record type
  <TRecord extends object = any, TResult = unknown[]>(tableName: string): Knex.QueryBuilder<TRecord, TResult>;
  raw: Knex.RawBuilder;
  fn: Knex.FunctionHelper;
  ref: Knex.RefBuilder;
  queryBuilder: Knex['queryBuilder'];
  withSchema: Knex['withSchema'];
  readonly isTransaction?: boolean;
}

/** A Queryable whose statements all run in one transaction (a knex transaction or `inTransaction`'s). */
export interface Transaction extends Queryable {
  /** Resolves once the transaction committed, rejects once it rolled back (knex's own has this too). */
  readonly executionPromise: Promise<unknown>;
}

/**
 * Runs `work` in a transaction on one connection of `db`'s pool: BEGIN, the statements `work` sends through the
 * handle it gets (knex builders bound to that connection, so they are named and prepared as any other), COMMIT,
 * or ROLLBACK when `work` or the COMMIT fails; the result or the error is `work`'s.
 *
 * Why not `db.transaction()`: knex builds a whole knex instance for each transaction (a function object with a
 * property per query method, a client copy, event listeners), about 110 µs of CPU per transaction on top of
 * its statements here, which the verification flow and every consumer batch pay (docs/benchmarks.md). What
 * this one does not offer: nested transactions (savepoints) and commit() or rollback() by hand; a caller that
 * needs one of those uses `db.transaction()`.
 */
export async function inTransaction<T>(db: Knex, work: (trx: Transaction) => Promise<T>): Promise<T> {
  const client = db.client as Knex.Client;
  const connection = (await client.acquireConnection()) as PgConnection;
  const ended = settlement();
  let broken = false;
  try {
    await send(connection, 'BEGIN');
    let result: T;
    try {
      result = await work(bound(db, connection, ended.promise));
    } catch (err) {
      // The error that matters is work's; a connection that cannot even roll back is not given back as it is.
      await send(connection, 'ROLLBACK').catch((rollbackErr: unknown) => {
        broken = true;
        connection.__knex__disposed ??= rollbackErr;
      });
      throw err;
    }
    // A COMMIT that fails (the transaction was aborted, a serialization failure) leaves the connection idle
    // and out of the transaction: Postgres ended it either way.
    await send(connection, 'COMMIT');
    ended.resolve(result);
    return result;
  } catch (err) {
    if (!broken && isConnectionError(connection)) connection.__knex__disposed ??= err;
    ended.reject(err);
    throw err;
  } finally {
    await client.releaseConnection(connection);
  }
}

/** The pg client knex's pool hands out; knex marks one whose socket failed, and its pool then destroys it. */
interface PgConnection {
  query(text: string): Promise<unknown>;
  __knex__disposed?: unknown;
}

const send = (connection: PgConnection, text: string) => connection.query(text);

const isConnectionError = (connection: PgConnection) => connection.__knex__disposed !== undefined;

/** A promise settled from outside; a rejection nobody listens to is not reported as unhandled. */
export function settlement(): {
  promise: Promise<unknown>;
  resolve(v: unknown): void;
  reject(e: unknown): void;
} {
  let resolve!: (v: unknown) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<unknown>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** The Queryable of one connection: each builder and raw statement it makes runs on that connection. */
function bound(db: Knex, connection: PgConnection, executionPromise: Promise<unknown>): Transaction {
  // Both builders and raw statements return themselves from connection().
  return transactionHandle(
    db,
    (statement) => statement.connection(connection) as typeof statement,
    executionPromise,
  );
}

/** A knex builder or raw statement, not yet run. */
type Statement = Knex.QueryBuilder | Knex.Raw;

/**
 * A Transaction handle over `db`'s builders: `each` is applied to every builder and raw statement it makes
 * (binding it to a connection, guarding its run), before it is handed out.
 */
export function transactionHandle(
  db: Knex,
  each: <S extends Statement>(statement: S) => S,
  executionPromise: Promise<unknown>,
): Transaction {
  const table = (tableName: string) => each(db(tableName));
  return Object.assign(table, {
    raw: ((...args: Parameters<Knex.RawBuilder>) =>
      each((db.raw as (...a: unknown[]) => Knex.Raw)(...args))) as Knex.RawBuilder,
    fn: db.fn,
    ref: db.ref.bind(db),
    queryBuilder: () => each(db.queryBuilder()),
    withSchema: (schema: string) => each(db.queryBuilder().withSchema(schema)),
    isTransaction: true,
    executionPromise,
  }) as unknown as Transaction;
}
