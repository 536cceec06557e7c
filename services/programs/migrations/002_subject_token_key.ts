import type { SchemaMigration } from '@eligo/runtime';

/**
 * Program.subject_token_key: the public key (a JWK as JSON, or PEM SPKI) that verifies a program's compact JWS
 * subject tokens. Null when the program has none. Validated by the domain before every write.
 */
export const subjectTokenKey: SchemaMigration = {
  name: '002_subject_token_key',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.text('subject_token_key').nullable();
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.dropColumn('subject_token_key');
    });
  },
};
