import { ORGANIZATION_TYPES } from '@eligo/vocabulary';
import type { Knex, SchemaMigration } from '@eligo/runtime';

/**
 * The organization catalog, add-school requests and their per-day counters. Names are searched through
 * search_name (the folded name): a C-collated btree serves exact and prefix matches in index order, a
 * trigram GIN index substring and similarity matches.
 */
export const catalog: SchemaMigration = {
  name: '001_catalog',
  async up(knex, schema) {
    await installTrigrams(knex, schema);
    const s = () => knex.schema.withSchema(schema);

    // DDL takes no bind parameters: the types (constant upper-case words) are written in as literals.
    const typeList = ORGANIZATION_TYPES.map((t) => `'${t}'`).join(', ');
    // Raw SQL: knex has no identity columns nor column collations. Collation "C" compares bytes, so that one
    // btree on search_name serves LIKE 'prefix%' and ORDER BY alike, whatever the database's locale.
    await knex.raw(
      `create table ??.organizations (
         id bigint generated always as identity primary key,
         external_key text not null constraint organizations_external_key_key unique,
         name text not null,
         search_name text collate "C" not null,
         type text not null constraint organizations_type_check check (type in (${typeList})),
         country text not null constraint organizations_country_check check (country ~ '^[A-Z]{2}$'),
         domains text[] not null default '{}',
         city text,
         state text,
         created_at timestamptz not null default now(),
         updated_at timestamptz not null default now()
       )`,
      [schema],
    );
    await knex.raw('create index organizations_search_name_idx on ??.organizations (search_name, id)', [
      schema,
    ]);
    await knex.raw(
      'create index organizations_search_name_trgm_idx on ??.organizations using gin (search_name ??.gin_trgm_ops)',
      [schema, schema],
    );
    await knex.raw('create index organizations_domains_idx on ??.organizations using gin (domains)', [
      schema,
    ]);
    await knex.raw('create index organizations_country_type_idx on ??.organizations (country, type)', [
      schema,
    ]);

    await s().createTable('add_school_requests', (t) => {
      t.string('id', 24).primary();
      t.string('program_id', 24).notNullable();
      t.text('status')
        .notNullable()
        .checkIn(['PENDING', 'ACCEPTED', 'DECLINED'], 'add_school_requests_status_check');
      // PII: AES-256-GCM (purpose organizations.add-school-requester), bound to the request id and field.
      t.binary('first_name').notNullable();
      t.binary('last_name').notNullable();
      t.binary('email').notNullable();
      t.text('school_name').notNullable();
      t.text('school_domain').notNullable();
      t.text('school_country').notNullable();
      // Millisecond precision: the list's page token carries created_at through a JavaScript Date exactly.
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('decided_at', { useTz: true, precision: 3 }).nullable();
      t.bigInteger('organization_id').nullable().references('id').inTable(`${schema}.organizations`);
      t.text('decline_reason').nullable();
      t.check("(status = 'PENDING') = (decided_at is null)", [], 'add_school_requests_decided_check');
      t.check(
        "(status = 'ACCEPTED') = (organization_id is not null)",
        [],
        'add_school_requests_organization_check',
      );
    });
    await knex.raw(
      'create index add_school_requests_status_idx on ??.add_school_requests (status, created_at desc, id desc)',
      [schema],
    );
    await knex.raw(
      'create index add_school_requests_program_idx on ??.add_school_requests (program_id, created_at desc)',
      [schema],
    );
    // The list without a status filter pages over everything, newest first.
    await knex.raw(
      'create index add_school_requests_created_idx on ??.add_school_requests (created_at desc, id desc)',
      [schema],
    );

    // One row per program and UTC day; the 429 limit is an atomic conditional increment of it.
    await s().createTable('add_school_daily_counts', (t) => {
      t.string('program_id', 24).notNullable();
      t.date('day').notNullable();
      t.integer('count').notNullable();
      t.primary(['program_id', 'day']);
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTableIfExists('add_school_daily_counts');
    await knex.schema.withSchema(schema).dropTableIfExists('add_school_requests');
    await knex.schema.withSchema(schema).dropTableIfExists('organizations');
  },
};

/**
 * pg_trgm must live in the service's schema: its queries run with search_path = [schema] only, so operators
 * (%, <%) and the gin_trgm_ops class installed elsewhere (say public, by an earlier tool) would not resolve.
 */
async function installTrigrams(knex: Knex, schema: string): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm with schema ??', [schema]);
  const result = await knex.raw<{ rows: { schema: string }[] }>(
    `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`,
  );
  const installed = result.rows[0]?.schema;
  if (installed !== schema) {
    throw new Error(
      `the pg_trgm extension is installed in schema "${installed}" of this database, but the organizations ` +
        `service needs it in "${schema}" (its queries see only that schema). Move it with ` +
        `ALTER EXTENSION pg_trgm SET SCHEMA ${schema}; (other users of pg_trgm then find it there).`,
    );
  }
}
