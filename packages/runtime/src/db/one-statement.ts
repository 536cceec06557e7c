import type { Knex } from 'knex';
import { settlement, transactionHandle, type Queryable, type Transaction } from './transaction';

/**
 * Work run as ONE statement on the pool, or not at all: the optimistic path of a change decided on a row read
 * without a lock (docs/architecture.md, "A submission in one statement"). The handle `work` gets sends nothing
 * itself. Its one write of `writeWithEvents` is kept and sent once `work` has returned, alone, a transaction by
 * itself (one round trip instead of BEGIN, a locking read, the write and COMMIT); any other statement, before
 * or after it, or a second write, is refused before it is sent. The caller then does the work again in a
 * transaction, as it would have without this path: nothing of the first try was stored.
 */
export async function asOneStatement<T>(
  db: Knex,
  work: (trx: Transaction) => Promise<T>,
): Promise<{ value: T } | undefined> {
  const state: OneStatement = { pool: db, refused: false };
  const ended = settlement();
  const handle = refusing(db, state, ended.promise);
  handles.set(handle, state);
  let written = false;
  try {
    let value: T;
    try {
      value = await work(handle);
    } catch (err) {
      // work may have caught the refusal and answered something else: what it answered does not count.
      if (state.refused) return undefined;
      throw err;
    }
    if (state.refused) return undefined;
    try {
      await state.write?.();
    } catch (err) {
      if (err instanceof NotWritten) return undefined;
      throw err;
    }
    written = true;
    ended.resolve(value);
    return { value };
  } finally {
    // An error is made only for the work that stored nothing (its stack costs, at every submission).
    if (!written) ended.reject(new NotWritten('The work was not written by one statement'));
  }
}

/**
 * A write that depends on a row that was no longer there as the caller read it (writeWithEvents's `onlyIf`
 * part returned nothing): nothing of the statement was stored.
 */
export class NotWritten extends Error {
  override readonly name = 'NotWritten';
}

/** What a one-statement handle was asked: its one write, kept for later, or something it refused. */
interface OneStatement {
  pool: Knex;
  write?: () => Promise<void>;
  refused: boolean;
}

const handles = new WeakMap<Queryable, OneStatement>();

/** Thrown where a one-statement handle refuses a statement; asOneStatement answers undefined for it. */
class NeedsTransaction extends Error {
  override readonly name = 'NeedsTransaction';
}

/**
 * For writeWithEvents: the pool a one-statement handle's write is built on, and `defer` to keep it for after
 * the work (a second write is refused). Undefined for any other Queryable.
 */
export function oneStatementOf(
  db: Queryable,
): { pool: Knex; defer(write: () => Promise<void>): void } | undefined {
  const state = handles.get(db);
  if (!state) return undefined;
  return {
    pool: state.pool,
    defer(write) {
      if (state.write) refuse(state);
      state.write = write;
    },
  };
}

function refuse(state: OneStatement): never {
  state.refused = true;
  throw new NeedsTransaction('This work needs a transaction');
}

/**
 * The handle: knex builders and raw statements of the pool that refuse to run (knex emits `query` just before
 * it sends a statement, on a connection it then releases untouched). Parts of the one write are compiled into
 * it, never run themselves.
 */
function refusing(db: Knex, state: OneStatement, executionPromise: Promise<unknown>): Transaction {
  return transactionHandle(
    db,
    (statement) =>
      (statement as unknown as NodeJS.EventEmitter).on('query', () => refuse(state)) && statement,
    executionPromise,
  );
}
