import type { SchemaMigration } from '@eligo/runtime';

/**
 * used_subject_tokens: the jti of every subject token (a compact JWS of the program's partner) a submission
 * was recorded with, so that the token cannot be used again while it is valid. A row lives until the token
 * could no longer be accepted anyway (expires_at: its exp plus the clock skew); request_id lets the retry of
 * the submission that used it (the same request id) through. No personal data.
 */
export const usedSubjectTokens: SchemaMigration = {
  name: '006_used_subject_tokens',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('used_subject_tokens', (t) => {
      t.string('program_id', 24).notNullable();
      t.string('jti', 128).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.text('request_id');
      t.primary(['program_id', 'jti']);
      // The purge deletes the rows of expired tokens, oldest first.
      t.index(['expires_at'], 'used_subject_tokens_expires_idx');
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTable('used_subject_tokens');
  },
};
