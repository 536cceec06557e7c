import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { createDb, type Knex } from '../../src/db/knex';
import { inTransaction, type Queryable, type Transaction } from '../../src/db/transaction';

// inTransaction (db/transaction.ts): every statement of the work on one connection, in one transaction;
// committed, or rolled back with the work's error; a connection that broke is not handed out again. One
// connection per pool, so that a connection left in a transaction or broken shows in the next statement.
const url = process.env.ELIGO_TEST_DATABASE_URL!;
const schema = `trx_${randomBytes(4).toString('hex')}`;
let db: Knex;

// knex's own handles are Queryable, and its transactions are Transactions: repositories take either.
const asQueryable = (handle: Knex | Knex.Transaction): Queryable => handle;
const asTransaction = (trx: Knex.Transaction): Transaction => trx;

const ids = async (on: Queryable = db) =>
  (await on('things').orderBy('id').select<{ id: string }[]>('id')).map((r) => r.id);

beforeAll(async () => {
  // Silent: the pool reports the connection the broken-connection test leaves behind.
  db = createDb({
    url,
    schema,
    poolMax: 1,
    applicationName: 'transaction-test',
    logger: pino({ level: 'silent' }),
  });
  await db.raw('create schema ??', [schema]);
  await db.schema.withSchema(schema).createTable('things', (t) => {
    t.text('id').primary();
    t.integer('size').notNullable();
  });
  // A deferred check fails at COMMIT, not at the statement.
  await db.raw(
    `alter table ?? add constraint small check (size < 100) not valid, add constraint once unique (size) deferrable initially deferred`,
    [`${schema}.things`],
  );
});

afterEach(async () => {
  await db('things').delete();
});

afterAll(async () => {
  await db.raw('drop schema if exists ?? cascade', [schema]);
  await db.destroy();
});

it('runs every statement of the work in one transaction on one connection, then commits', async () => {
  const result = await inTransaction(db, async (trx) => {
    await trx('things').insert({ id: 'a', size: 1 });
    await trx.raw('insert into things (id, size) values (?, ?)', ['b', 2]);
    await trx.queryBuilder().table('things').insert({ id: 'c', size: 3 });
    await trx.withSchema(schema).table('things').insert({ id: 'd', size: 4 });
    const raw = await trx.raw<{ rows: { txid: string }[] }>('select txid_current() as txid');
    const built = await trx.queryBuilder().select(trx.raw('txid_current() as txid'));
    const table = await trx('things').select(trx.raw('txid_current() as txid')).limit(1);
    return new Set([raw.rows[0]!.txid, built[0].txid, table[0].txid]);
  });
  expect(result.size).toBe(1);
  expect(await ids()).toEqual(['a', 'b', 'c', 'd']);
});

it('is invisible to others until it commits', async () => {
  const other = createDb({ url, schema, poolMax: 1, applicationName: 'transaction-test-other' });
  try {
    await inTransaction(db, async (trx) => {
      await trx('things').insert({ id: 'a', size: 1 });
      expect(await ids(other)).toEqual([]);
      expect(await ids(trx)).toEqual(['a']);
    });
    expect(await ids(other)).toEqual(['a']);
  } finally {
    await other.destroy();
  }
});

it('rolls back what the work did when it throws, and the error is the work’s', async () => {
  const failure = new Error('work failed');
  await expect(
    inTransaction(db, async (trx) => {
      await trx('things').insert({ id: 'a', size: 1 });
      throw failure;
    }),
  ).rejects.toBe(failure);
  expect(await ids()).toEqual([]);
});

it('rolls back after a failed statement, and the connection serves the next call', async () => {
  await db('things').insert({ id: 'a', size: 1 });
  await expect(
    inTransaction(db, async (trx) => {
      await trx('things').insert({ id: 'b', size: 2 });
      await trx('things').insert({ id: 'a', size: 3 }); // duplicate key
    }),
  ).rejects.toMatchObject({ code: '23505' });
  expect(await ids()).toEqual(['a']);
  // The pool's one connection is out of the transaction: this would fail with 25P02 otherwise.
  await inTransaction(db, (trx) => trx('things').insert({ id: 'c', size: 3 }));
  expect(await ids()).toEqual(['a', 'c']);
});

it('fails when COMMIT fails, with nothing stored', async () => {
  await expect(
    inTransaction(db, async (trx) => {
      await trx('things').insert({ id: 'a', size: 1 });
      await trx('things').insert({ id: 'b', size: 1 }); // the deferred unique check fails at COMMIT
      return 'done';
    }),
  ).rejects.toMatchObject({ code: '23505' });
  expect(await ids()).toEqual([]);
});

it('settles executionPromise: resolved on commit, rejected on rollback', async () => {
  let committed: Promise<unknown> | undefined;
  await inTransaction(db, async (trx) => {
    committed = trx.executionPromise;
    await trx('things').insert({ id: 'a', size: 1 });
    return 'value';
  });
  await expect(committed).resolves.toBe('value');

  let rolledBack: Promise<unknown> | undefined;
  const failure = new Error('no');
  await expect(
    inTransaction(db, async (trx) => {
      rolledBack = trx.executionPromise;
      throw failure;
    }),
  ).rejects.toBe(failure);
  await expect(rolledBack).rejects.toBe(failure);
});

it('does not hand out again a connection that broke in the transaction', async () => {
  await expect(
    inTransaction(db, async (trx) => {
      await trx('things').insert({ id: 'a', size: 1 });
      // Another session ends this one's backend, as a failover or an operator would.
      const pid = (await trx.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const other = createDb({ url, schema, poolMax: 1, applicationName: 'transaction-test-killer' });
      try {
        await other.raw('select pg_terminate_backend(?)', [pid]);
      } finally {
        await other.destroy();
      }
      await trx('things').insert({ id: 'b', size: 2 });
    }),
  ).rejects.toThrow();
  // The next call gets a fresh connection (the pool has room for one only), and nothing was stored.
  expect(await ids()).toEqual([]);
  await inTransaction(db, (trx) => trx('things').insert({ id: 'c', size: 3 }));
  expect(await ids()).toEqual(['c']);
});

it('names its statements with parameters, as on the pool', async () => {
  await inTransaction(db, async (trx) => {
    await trx('things').insert({ id: 'a', size: 1 });
    await trx('things').where({ id: 'a' }).first('id');
  });
  const prepared = (
    await db.raw<{ rows: { statement: string }[] }>('select statement from pg_prepared_statements')
  ).rows.map((r) => r.statement);
  expect(prepared).toEqual(
    expect.arrayContaining([
      'insert into "things" ("id", "size") values ($1, $2)',
      'select "id" from "things" where "id" = $1 limit $2',
    ]),
  );
});

it('works the same where statements are not prepared (a pooler in transaction mode)', async () => {
  const plain = createDb({
    url,
    schema,
    poolMax: 1,
    applicationName: 'transaction-test-unprepared',
    preparedStatements: false,
  });
  try {
    await inTransaction(plain, (trx) => trx('things').insert({ id: 'a', size: 1 }));
    await expect(
      inTransaction(plain, async (trx) => {
        await trx('things').where({ id: 'a' }).update({ size: 2 });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await plain('things').select('id', 'size')).toEqual([{ id: 'a', size: 1 }]);
  } finally {
    await plain.destroy();
  }
});

it('accepts knex handles where a Queryable or a Transaction is expected', async () => {
  await db.transaction(async (trx) => {
    await asTransaction(trx)('things').insert({ id: 'a', size: 1 });
  });
  expect(await ids(asQueryable(db))).toEqual(['a']);
});
