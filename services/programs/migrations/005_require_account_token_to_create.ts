import type { SchemaMigration } from '@eligo/runtime';

/**
 * Program.require_account_token_to_create: verifications of the program may be created only by a caller with
 * a token of the program's account. False for every existing program (anyone may start one, as before).
 */
export const requireAccountTokenToCreate: SchemaMigration = {
  name: '005_require_account_token_to_create',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.boolean('require_account_token_to_create').notNullable().defaultTo(false);
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.dropColumn('require_account_token_to_create');
    });
  },
};
