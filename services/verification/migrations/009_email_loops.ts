import type { SchemaMigration } from '@eligo/runtime';

/**
 * The email loop (issue 22, app/email-loop.ts): the current one-time code of a verification on step emailLoop,
 * one row per verification, replaced by each resend. The code is kept as a keyed HMAC (code_hash, bound to the
 * verification and the send), which is what a submitted code is checked against. code_sealed is the code
 * encrypted (ELIGO_ENCRYPTION_KEY, bound to the verification and the send) only for the notifier to mail it
 * (TakeEmailLoopMessage, from the EmailLoopCodeIssued event): it is cleared when the code stops being current
 * (used, replaced, the step left), and never lives longer than the code. Rows go with their verification.
 */
export const emailLoops: SchemaMigration = {
  name: '009_email_loops',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('email_loops', (t) => {
      t.string('verification_id', 24)
        .primary()
        .references('id')
        .inTable(`${schema}.verifications`)
        .onDelete('CASCADE');
      t.string('send_id', 24).notNullable();
      t.binary('code_hash').notNullable();
      t.binary('code_sealed');
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.integer('sends').notNullable();
      t.timestamp('last_sent_at', { useTz: true }).notNullable();
      t.integer('wrong_codes').notNullable().defaultTo(0);
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTable('email_loops');
  },
};
