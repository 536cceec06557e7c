import type { SchemaMigration } from '@eligo/runtime';

/**
 * verifications.locale: the BCP 47 tag (canonical) a client gave when it started the verification or with
 * its last personal-info body; the locale of every response of the verification from then on. Null: the
 * program's theme decides. Not personal data (a language preference), so stored in the clear.
 */
export const locale: SchemaMigration = {
  name: '005_locale',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('verifications', (t) => {
      t.text('locale').nullable();
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('verifications', (t) => {
      t.dropColumn('locale');
    });
  },
};
