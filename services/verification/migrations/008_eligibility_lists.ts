import type { SchemaMigration } from '@eligo/runtime';

/**
 * Customer eligibility lists (app/eligibility-list-*.ts). A program has versions of its list; an import
 * writes a new version (state importing) batch by batch, then activates it in one transaction in which the
 * previous active version becomes replaced, so a submission always sees one whole version. At most one
 * version of a program is active (partial unique index).
 *
 * eligibility_list_rows holds no personal data in clear: each identifier of a row (email, member id,
 * employee id, name + birth date) is a keyed HMAC (ELIGO_ENCRYPTION_KEY, purpose
 * verification.eligibility-list) of its normalised value (domain/eligibility-identifiers.ts). The primary key
 * (kind, hmac, list_id) is the lookup's index: a submission's identifiers are found with one index probe
 * each, and the same identifier twice in one version is stored once. list_id leads a second index for
 * deleting a version's rows (a replaced or failed import, DELETE).
 */
export const eligibilityLists: SchemaMigration = {
  name: '008_eligibility_lists',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('eligibility_lists', (t) => {
      t.bigIncrements('id').primary();
      t.string('program_id', 24).notNullable();
      t.integer('version').notNullable();
      t.string('state', 16).notNullable();
      t.string('format', 16).notNullable();
      t.bigInteger('rows_read').notNullable().defaultTo(0);
      t.bigInteger('rows_stored').notNullable().defaultTo(0);
      t.bigInteger('rows_refused').notNullable().defaultTo(0);
      t.bigInteger('identifier_count').notNullable().defaultTo(0);
      t.bigInteger('duplicates').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('activated_at', { useTz: true });
      t.unique(['program_id', 'version'], { indexName: 'eligibility_lists_program_version_key' });
    });
    await knex.raw(
      `alter table ??.eligibility_lists add constraint eligibility_lists_state_check
         check (state in ('importing', 'active', 'replaced'))`,
      [schema],
    );
    await knex.raw(
      `create unique index eligibility_lists_active_idx on ??.eligibility_lists (program_id)
         where state = 'active'`,
      [schema],
    );
    await knex.schema.withSchema(schema).createTable('eligibility_list_rows', (t) => {
      // 1 email, 2 member id, 3 employee id, 4 name + birth date (domain/eligibility-identifiers.ts).
      t.smallint('kind').notNullable();
      t.binary('hmac').notNullable();
      // No foreign key: its per-row trigger would slow an import of millions of rows; the rows of a version
      // are deleted with it by the repository (eligibility-lists.repository.ts).
      t.bigInteger('list_id').notNullable();
      t.primary(['kind', 'hmac', 'list_id'], { constraintName: 'eligibility_list_rows_pkey' });
      t.index(['list_id'], 'eligibility_list_rows_list_idx');
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTable('eligibility_list_rows');
    await knex.schema.withSchema(schema).dropTable('eligibility_lists');
  },
};
