import type { SchemaMigration } from '@eligo/runtime';

/**
 * Uploads (one docUpload attempt of a verification), their documents (one file each) and reviews (a submitted
 * upload in the staff queue). File names can hold a person's name: they are stored encrypted (purpose
 * documents.file-name, bound to the document id). Upload tokens are stored only as SHA-256 hashes; object
 * keys are built from ids, never from a client's file name.
 */
export const documents: SchemaMigration = {
  name: '001_documents',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('uploads', (t) => {
      t.uuid('id').primary();
      t.string('verification_id', 24).notNullable();
      t.string('program_id', 24).notNullable();
      t.string('account_id', 24).notNullable();
      t.boolean('test_mode').notNullable();
      t.text('status').notNullable().checkIn(['open', 'submitted', 'cancelled'], 'uploads_status_check');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('submitted_at', { useTz: true });
      t.timestamp('cancelled_at', { useTz: true });
      // Set once the objects of a cancelled upload were deleted for good (after its PUT URLs expired).
      t.timestamp('files_deleted_at', { useTz: true });
    });
    // At most one open upload per verification: a new one cancels the earlier (and this index says so).
    await knex.raw(
      `create unique index uploads_open_verification_idx on ??.uploads (verification_id) where status = 'open'`,
      [schema],
    );
    // CompleteUpload without an upload id: the verification's latest upload.
    await knex.raw(
      `create index uploads_verification_latest_idx on ??.uploads (verification_id, created_at desc)`,
      [schema],
    );
    // Retention: open uploads abandoned before completion, oldest first.
    await knex.raw(`create index uploads_abandoned_idx on ??.uploads (created_at) where status = 'open'`, [
      schema,
    ]);
    // Retention: cancelled uploads whose objects still await their final deletion.
    await knex.raw(
      `create index uploads_cancelled_purge_idx on ??.uploads (cancelled_at)
        where status = 'cancelled' and files_deleted_at is null`,
      [schema],
    );

    await knex.schema.withSchema(schema).createTable('documents', (t) => {
      t.uuid('id').primary();
      t.uuid('upload_id').notNullable().references('id').inTable(`${schema}.uploads`).onDelete('CASCADE');
      t.smallint('position').notNullable();
      t.binary('file_name_enc').notNullable();
      t.text('declared_mime').notNullable();
      t.bigInteger('file_size').notNullable();
      t.text('detected_mime');
      t.text('status')
        .notNullable()
        .checkIn(['AWAITING_UPLOAD', 'UPLOADING', 'UPLOADED', 'REJECTED'], 'documents_status_check');
      t.specificType('errors', 'text[]').notNullable().defaultTo('{}');
      // The token's SHA-256: a leaked table does not hand out upload URLs. Unique: the token finds the row.
      t.binary('token_hash').notNullable().unique({ indexName: 'documents_token_hash_key' });
      t.timestamp('token_expires_at', { useTz: true }).notNullable();
      t.text('object_key').notNullable();
      // When the token was last claimed: a claim whose PUT URL expired unused may be taken again.
      t.timestamp('upload_started_at', { useTz: true });
      t.timestamp('uploaded_at', { useTz: true });
      // The documents of an upload, in manifest order.
      t.unique(['upload_id', 'position'], { indexName: 'documents_upload_position_key' });
    });

    await knex.schema.withSchema(schema).createTable('reviews', (t) => {
      t.uuid('id').primary();
      t.uuid('upload_id')
        .notNullable()
        .unique({ indexName: 'reviews_upload_id_key' })
        .references('id')
        .inTable(`${schema}.uploads`);
      t.string('verification_id', 24).notNullable();
      t.string('program_id', 24).notNullable();
      t.string('account_id', 24).notNullable();
      t.text('status').notNullable().checkIn(['pending', 'approved', 'rejected'], 'reviews_status_check');
      t.specificType('rejection_reasons', 'text[]').notNullable().defaultTo('{}');
      t.boolean('test_mode').notNullable();
      t.text('decided_by');
      // Milliseconds only (set by the service): the queue's keyset cursor carries it exactly.
      t.timestamp('submitted_at', { useTz: true }).notNullable();
      t.timestamp('decided_at', { useTz: true });
      t.timestamp('files_deleted_at', { useTz: true });
    });
    // The staff queue, filtered by status or not, in submission order (keyset pagination).
    await knex.raw(`create index reviews_queue_idx on ??.reviews (status, submitted_at, id)`, [schema]);
    await knex.raw(`create index reviews_all_idx on ??.reviews (submitted_at, id)`, [schema]);
    // Retention: decided reviews whose files are still stored, oldest decision first.
    await knex.raw(
      `create index reviews_retention_idx on ??.reviews (decided_at)
        where status <> 'pending' and files_deleted_at is null`,
      [schema],
    );
  },
};
