import { randomBytes } from 'node:crypto';
import { createDb, type Knex } from '../../src/db/knex';

// Statements with parameters are prepared once per connection (db/prepared-statements.ts), in transactions
// too; those naming * are not, so that a column a migration adds does not break them; a plan gone stale
// anyway fails once and is prepared again. One connection per pool, so that every statement of a test
// runs on the connection whose pg_prepared_statements it reads.
const url = process.env.ELIGO_TEST_DATABASE_URL!;
const schema = `prep_${randomBytes(4).toString('hex')}`;
let db: Knex;
let plain: Knex;

const prepared = async (on: Knex): Promise<string[]> =>
  (await on.raw<{ rows: { statement: string }[] }>('select statement from pg_prepared_statements')).rows
    .map((r) => r.statement)
    .filter((s) => s.includes('"things"'))
    .sort();

beforeAll(async () => {
  db = createDb({ url, schema, poolMax: 1, applicationName: 'prepared-test' });
  plain = createDb({
    url,
    schema,
    poolMax: 1,
    applicationName: 'unprepared-test',
    preparedStatements: false,
  });
  await db.raw('create schema ??', [schema]);
  await db.schema.withSchema(schema).createTable('things', (t) => {
    t.text('id').primary();
    t.integer('size').notNullable();
  });
  await db('things').insert([
    { id: 'a', size: 1 },
    { id: 'b', size: 2 },
  ]);
});

afterAll(async () => {
  await db.raw('drop schema if exists ?? cascade', [schema]);
  await db.destroy();
  await plain.destroy();
});

it('prepares a statement with parameters once, on the pool and in transactions, and not one naming *', async () => {
  for (let i = 0; i < 3; i++)
    expect(await db('things').where({ id: 'a' }).first('id', 'size')).toEqual({ id: 'a', size: 1 });
  await db.transaction(async (trx) => {
    expect(await trx('things').where({ id: 'b' }).first('id', 'size')).toEqual({ id: 'b', size: 2 });
    await trx('things').where({ id: 'b' }).update({ size: 3 });
  });
  expect(await db('things').where({ id: 'b' }).first()).toEqual({ id: 'b', size: 3 });
  expect(await prepared(db)).toEqual([
    'insert into "things" ("id", "size") values ($1, $2), ($3, $4)',
    'select "id", "size" from "things" where "id" = $1 limit $2',
    'update "things" set "size" = $1 where "id" = $2',
  ]);
});

it('keeps a prepared statement working after a migration adds a column', async () => {
  await db('things').where({ id: 'a' }).first('id', 'size');
  await db.schema.withSchema(schema).alterTable('things', (t) => t.text('label'));
  expect(await db('things').where({ id: 'a' }).first('id', 'size')).toEqual({ id: 'a', size: 1 });
  expect(await db('things').where({ id: 'a' }).first()).toEqual({ id: 'a', size: 1, label: null });
});

it('prepares again, under another name, a statement whose plan went stale', async () => {
  await db('things').where({ id: 'a' }).first('id', 'size');
  await db.schema.withSchema(schema).alterTable('things', (t) => t.bigInteger('size').alter());
  // The prepared statement's result type changed: Postgres refuses it once (0A000)...
  await expect(db('things').where({ id: 'a' }).first('id', 'size')).rejects.toMatchObject({ code: '0A000' });
  // ...and its next run prepares it afresh.
  expect(await db('things').where({ id: 'a' }).first('id', 'size')).toEqual({ id: 'a', size: '1' });
});

it('prepares nothing with ELIGO_DB_PREPARED_STATEMENTS=false', async () => {
  expect(await plain('things').where({ id: 'a' }).first('id')).toEqual({ id: 'a' });
  expect(await prepared(plain)).toEqual([]);
});
