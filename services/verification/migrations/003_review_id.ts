import type { SchemaMigration } from '@eligo/runtime';

/**
 * The documents review a pending verification waits for. Submissions and decisions arrive both as calls and
 * as events (at least once, in either order after a crash); matching them on the review id applies each once.
 */
export const reviewId: SchemaMigration = {
  name: '003_review_id',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('verifications', (t) => {
      t.uuid('current_review_id');
    });
  },
};
