import type { SchemaMigration } from '@eligo/runtime';

/**
 * Email-loop messages (issue 22) beside the send-link ones: `kind` says which a message is (every existing row
 * is a send-link message), `verification_id` names the verification of an email-loop message (its request_id
 * is the event's send_id: one message per code mailed), and the text and HTML of an email-loop message, which
 * hold a one-time code (a credential), are stored encrypted (purpose notifier.message-body, bound to the
 * message id) in bytea columns of their own while body and body_html stay empty. Separate columns rather than
 * a flag over the text ones: a sealed value is bytes, never text that could be read, shown or searched as if it
 * were the body, and the check below makes a plaintext code in an email-loop row impossible.
 *
 * Adding columns with a constant default rewrites nothing (Postgres 11+); the check and the partial index read
 * the table once, in the migration's transaction (the table holds one row per message sent: small).
 */
export const emailLoopMessages: SchemaMigration = {
  name: '003_email_loop_messages',
  async up(knex, schema) {
    await knex.raw(
      `alter table ??.messages
         add column kind text not null default 'SEND_LINK'
           constraint messages_kind_check check (kind in ('SEND_LINK', 'EMAIL_LOOP')),
         add column verification_id varchar(24),
         add column body_encrypted bytea,
         add column body_html_encrypted bytea`,
      [schema],
    );
    await knex.raw(
      `alter table ??.messages add constraint messages_email_loop_check check (
         (kind = 'SEND_LINK' and verification_id is null and body_encrypted is null
           and body_html_encrypted is null)
         or (kind = 'EMAIL_LOOP' and verification_id is not null and body_encrypted is not null
           and body_html_encrypted is not null and body = '' and body_html = ''))`,
      [schema],
    );
    // ListMessages filtered by verification (a support case starts from one), newest first (keyset on
    // created_at, id); send-link messages have no verification and stay out of it.
    await knex.raw(
      `create index messages_verification_idx on ??.messages (verification_id, created_at desc, id desc)
         where verification_id is not null`,
      [schema],
    );
  },
  async down(knex, schema) {
    await knex.raw(`drop index if exists ??.messages_verification_idx`, [schema]);
    await knex.raw(
      `alter table ??.messages
         drop constraint if exists messages_email_loop_check,
         drop column if exists body_html_encrypted,
         drop column if exists body_encrypted,
         drop column if exists verification_id,
         drop column if exists kind`,
      [schema],
    );
  },
};
