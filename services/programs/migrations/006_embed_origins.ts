import type { SchemaMigration } from '@eligo/runtime';

/**
 * Program.embed_origins: the web origins allowed to embed the program's hosted verification page and to call
 * REST v2 from a browser, stored normalised. Empty for every existing program (none allowed, as before).
 */
export const embedOrigins: SchemaMigration = {
  name: '006_embed_origins',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.specificType('embed_origins', 'text[]').notNullable().defaultTo('{}');
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.dropColumn('embed_origins');
    });
  },
};
