import type { SchemaMigration } from '@eligo/runtime';

/**
 * Program.instant_match (issue 22): the instant-match sources a live program asks, in order, and the HTTP
 * source's URL (jsonb, domain/instant-match.ts); and the HTTP source's secret, sealed with the master key
 * (bytea, null without an HTTP source). Existing programs have no sources, as before.
 */
export const instantMatch: SchemaMigration = {
  name: '008_instant_match',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.jsonb('instant_match')
        .notNullable()
        .defaultTo(JSON.stringify({ sources: [], httpUrl: null }));
      t.binary('instant_source_secret').nullable();
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.dropColumn('instant_match');
      t.dropColumn('instant_source_secret');
    });
  },
};
