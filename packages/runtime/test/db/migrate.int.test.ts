import { randomBytes } from 'node:crypto';
import { createDb, type Knex } from '../../src/db/knex';
import { appliedMigrations, migrateSchema, type SchemaMigration } from '../../src/db/migrate';

// Two services' schemas migrated side by side in one database: each has its own migrations table and lock,
// so one service's history never blocks or reorders the other's (docs/architecture.md, "Data ownership").
const url = process.env.ELIGO_TEST_DATABASE_URL!;
const suffix = randomBytes(4).toString('hex');
const schemaA = `mig_a_${suffix}`;
const schemaB = `mig_b_${suffix}`;

const table = (name: string): SchemaMigration => ({
  name: `001_create_${name}`,
  up: async (knex, schema) => {
    await knex.schema.withSchema(schema).createTable(name, (t) => {
      t.bigIncrements('id');
      t.text('label').notNullable();
    });
  },
});

const addColumn: SchemaMigration = {
  name: '002_add_created_at',
  up: async (knex, schema) => {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
  },
};

let a: Knex;
let b: Knex;

beforeAll(() => {
  a = createDb({ url, schema: schemaA, poolMax: 2, applicationName: 'test-a' });
  b = createDb({ url, schema: schemaB, poolMax: 2, applicationName: 'test-b' });
});

afterAll(async () => {
  await a.raw('drop schema if exists ?? cascade', [schemaA]);
  await a.raw('drop schema if exists ?? cascade', [schemaB]);
  await a.destroy();
  await b.destroy();
});

it('migrates two schemas side by side, each with its own history', async () => {
  const [appliedA, appliedB] = await Promise.all([
    migrateSchema(a, schemaA, [table('programs'), addColumn]),
    migrateSchema(b, schemaB, [table('documents')]),
  ]);
  expect(appliedA).toEqual(['001_create_programs', '002_add_created_at']);
  expect(appliedB).toEqual(['001_create_documents']);
  expect(await appliedMigrations(a, schemaA)).toEqual(['001_create_programs', '002_add_created_at']);
  expect(await appliedMigrations(b, schemaB)).toEqual(['001_create_documents']);

  // Unqualified queries land in the module's own schema (search_path), and each table is where it belongs.
  await a('programs').insert({ label: 'p' });
  await b('documents').insert({ label: 'd' });
  const where = await a.raw(
    `select table_schema, table_name from information_schema.tables
      where table_schema in (?, ?) and table_name in ('programs', 'documents', 'knex_migrations') order by 1, 2`,
    [schemaA, schemaB],
  );
  expect(where.rows).toEqual([
    { table_schema: schemaA, table_name: 'knex_migrations' },
    { table_schema: schemaA, table_name: 'programs' },
    { table_schema: schemaB, table_name: 'documents' },
    { table_schema: schemaB, table_name: 'knex_migrations' },
  ]);
});

it('is idempotent and applies only what is new', async () => {
  expect(await migrateSchema(b, schemaB, [table('documents')])).toEqual([]);
  const extra: SchemaMigration = {
    name: '002_add_index',
    up: async (knex, schema) => {
      await knex.schema.withSchema(schema).alterTable('documents', (t) => t.index(['label']));
    },
  };
  expect(await migrateSchema(b, schemaB, [table('documents'), extra])).toEqual(['002_add_index']);
  expect(await appliedMigrations(a, schemaA)).toHaveLength(2);
});

it('migrates once when replicas of one service start together', async () => {
  const schemaC = `mig_c_${suffix}`;
  const c1 = createDb({ url, schema: schemaC, poolMax: 2, applicationName: 'test-c1' });
  const c2 = createDb({ url, schema: schemaC, poolMax: 2, applicationName: 'test-c2' });
  try {
    const results = await Promise.all([
      migrateSchema(c1, schemaC, [table('reports')]),
      migrateSchema(c2, schemaC, [table('reports')]),
    ]);
    expect(results.flat()).toEqual(['001_create_reports']);
    expect(await appliedMigrations(c1, schemaC)).toEqual(['001_create_reports']);
  } finally {
    await c1.raw('drop schema if exists ?? cascade', [schemaC]);
    await c1.destroy();
    await c2.destroy();
  }
});

it('rejects a schema name that is not a plain identifier', () => {
  expect(() => createDb({ url, schema: 'bad;drop', poolMax: 1, applicationName: 'x' })).toThrow(
    'invalid schema name',
  );
});
