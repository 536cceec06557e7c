import type { SchemaMigration } from '@eligo/runtime';

/**
 * Organization.login_url: the organization's single sign-on page (https), where a verification's sso step
 * sends the person. Null when it has none (every row until an import or an accept sets one).
 */
export const loginUrl: SchemaMigration = {
  name: '003_login_url',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('organizations', (t) => {
      t.text('login_url').nullable();
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('organizations', (t) => {
      t.dropColumn('login_url');
    });
  },
};
