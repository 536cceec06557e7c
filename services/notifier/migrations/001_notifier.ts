import type { SchemaMigration } from '@eligo/runtime';

/**
 * Webhook endpoints (one per program: its delivery health), deliveries (one logical delivery each: its id is
 * the webhook-id of every attempt; the retry schedule lives in next_attempt_at so that it survives restarts),
 * their attempts (the delivery log), and send-link messages (the recipient is personal data: encrypted with
 * purpose notifier.message-recipient, bound to the message id). Timestamps are set by the service in
 * milliseconds, so that keyset cursors carry them exactly.
 */
export const notifier: SchemaMigration = {
  name: '001_notifier',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('endpoints', (t) => {
      t.string('program_id', 24).primary();
      t.string('account_id', 24).notNullable();
      t.text('status').notNullable().checkIn(['active', 'disabled'], 'endpoints_status_check');
      t.timestamp('failing_since', { useTz: true });
      t.timestamp('disabled_at', { useTz: true });
      t.text('disabled_reason').checkIn(['GONE', 'PERSISTENT_FAILURE'], 'endpoints_disabled_reason_check');
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });

    await knex.schema.withSchema(schema).createTable('deliveries', (t) => {
      t.text('id').primary();
      t.string('program_id', 24).notNullable();
      t.string('account_id', 24).notNullable();
      t.string('verification_id', 24).notNullable();
      t.text('event_type')
        .notNullable()
        .checkIn(
          ['SUCCESS', 'DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION'],
          'deliveries_type_check',
        );
      // The consumed event's ce_id (or the refire request's): one logical delivery per event and type, even
      // when the event is delivered twice.
      t.uuid('source_event_id').notNullable();
      t.text('body').notNullable();
      t.text('status')
        .notNullable()
        .checkIn(['pending', 'delivered', 'failed', 'cancelled'], 'deliveries_status_check');
      t.integer('attempt_count').notNullable().defaultTo(0);
      t.timestamp('next_attempt_at', { useTz: true });
      // A dispatcher's lease on the delivery while it attempts it; an expired lease (a crash) frees it again.
      t.timestamp('locked_until', { useTz: true });
      // When the verification's event happened: event-to-delivery latency is measured from it.
      t.timestamp('event_at', { useTz: true }).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('delivered_at', { useTz: true });
      t.text('refire_of');
      t.unique(['source_event_id', 'event_type'], { indexName: 'deliveries_source_event_key' });
    });
    // The dispatcher: due pending deliveries, soonest first.
    await knex.raw(
      `create index deliveries_due_idx on ??.deliveries (status, next_attempt_at) where status = 'pending'`,
      [schema],
    );
    // The delivery log of a program, newest first (keyset on created_at, id); also the pending deliveries
    // of a program that a removed or disabled webhook ends.
    await knex.raw(
      `create index deliveries_program_idx on ??.deliveries (program_id, created_at desc, id desc)`,
      [schema],
    );
    // Refire: the latest delivery of each type for a verification.
    await knex.raw(
      `create index deliveries_verification_idx on ??.deliveries (verification_id, created_at desc)`,
      [schema],
    );

    await knex.schema.withSchema(schema).createTable('delivery_attempts', (t) => {
      t.text('delivery_id')
        .notNullable()
        .references('id')
        .inTable(`${schema}.deliveries`)
        .onDelete('CASCADE');
      t.integer('attempt').notNullable();
      t.timestamp('started_at', { useTz: true }).notNullable();
      t.integer('status_code').notNullable();
      t.integer('latency_ms').notNullable();
      t.text('error');
      t.primary(['delivery_id', 'attempt']);
    });

    await knex.schema.withSchema(schema).createTable('messages', (t) => {
      t.string('id', 24).primary();
      // One message per send-link request, however often its event is delivered.
      t.string('request_id', 24).notNullable().unique({ indexName: 'messages_request_id_key' });
      t.string('program_id', 24).notNullable();
      t.text('channel').notNullable().checkIn(['EMAIL', 'SMS'], 'messages_channel_check');
      t.binary('recipient_encrypted').notNullable();
      t.text('subject').notNullable();
      t.text('body').notNullable();
      t.text('body_html').notNullable();
      t.text('status')
        .notNullable()
        .checkIn(['pending', 'sent', 'captured', 'failed'], 'messages_status_check');
      t.integer('attempts').notNullable().defaultTo(0);
      t.timestamp('next_attempt_at', { useTz: true });
      t.timestamp('locked_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('sent_at', { useTz: true });
      t.text('error');
    });
    // The operator's list, newest first (keyset on created_at, id).
    await knex.raw(`create index messages_created_idx on ??.messages (created_at desc, id desc)`, [schema]);
    // The mail sender: messages waiting for their (next) attempt.
    await knex.raw(
      `create index messages_due_idx on ??.messages (next_attempt_at) where status = 'pending'`,
      [schema],
    );
  },
};
