import type { SchemaMigration } from '@eligo/runtime';

/**
 * The reports schema.
 *
 * verification_rows is the projection reports are read from: one row per verification, built from the
 * verification and documents events (ids, steps, outcomes, metadata keys; never the person's data). A row
 * may exist before its VerificationCreated arrives (a documents event or a conversion came first); reports
 * read only rows whose account and start time are known. Conversions are folded into their row as they are
 * recorded, so a report of a million rows needs no join.
 */
export const reports: SchemaMigration = {
  name: '001_reports',
  async up(knex, schema) {
    // A fresh builder per statement: a builder collects statements, and awaiting it again reruns them all.
    const s = () => knex.schema.withSchema(schema);
    await s().createTable('verification_rows', (t) => {
      t.string('verification_id', 24).primary();
      t.string('account_id', 24);
      t.string('program_id', 24);
      t.text('segment');
      t.text('sub_segment');
      t.text('tracking_id');
      t.boolean('test_mode');
      t.text('current_step');
      t.specificType('error_ids', 'text[]').notNullable().defaultTo('{}');
      t.bigInteger('organization_id');
      t.text('organization_name');
      t.text('verification_method');
      t.specificType('metadata_keys', 'text[]').notNullable().defaultTo('{}');
      t.integer('doc_upload_count').notNullable().defaultTo(0);
      t.text('review_outcome');
      t.specificType('rejection_reasons', 'text[]').notNullable().defaultTo('{}');
      t.integer('conversion_count').notNullable().defaultTo(0);
      // {"USD": "12.5000", ...}: one running total per currency (numeric text, no float rounding).
      t.jsonb('conversion_totals').notNullable().defaultTo('{}');
      t.specificType('conversion_tags', 'text[]').notNullable().defaultTo('{}');
      t.timestamp('created_at', { useTz: true });
      // The time of the step change last applied: an older event arriving late does not overwrite it.
      t.timestamp('step_changed_at', { useTz: true });
      t.timestamp('completed_at', { useTz: true });
    });
    // Reports: the account's verifications started in a date range, in start order.
    await knex.raw(
      `create index verification_rows_report_idx on ??.verification_rows (account_id, created_at, verification_id)
        where created_at is not null`,
      [schema],
    );
    // Conversions by tracking id: the account's most recent verification with it.
    await knex.raw(
      `create index verification_rows_tracking_idx on ??.verification_rows (account_id, tracking_id, created_at desc)
        where tracking_id is not null`,
      [schema],
    );

    // Names and owners of programs (ProgramCreated / ProgramUpdated), for the programName column.
    await s().createTable('programs', (t) => {
      t.string('program_id', 24).primary();
      t.string('account_id', 24).notNullable().index();
      t.text('name').notNullable();
    });

    await s().createTable('reports', (t) => {
      t.string('id', 24).primary();
      t.string('account_id', 24).notNullable();
      t.text('token_id').notNullable().defaultTo('');
      // VERIFICATION or REVERIFY.
      t.text('kind').notNullable();
      // The validated request (dates, programs, mode) or the batch id.
      t.jsonb('params').notNullable();
      t.boolean('pii_included').notNullable().defaultTo(false);
      t.text('pii_reason');
      t.text('status').notNullable();
      t.text('object_key');
      t.bigInteger('row_count').notNullable().defaultTo(0);
      t.text('error_message');
      t.integer('attempts').notNullable().defaultTo(0);
      // A generator's claim: another replica takes the report over once it has lapsed.
      t.uuid('lease');
      t.timestamp('locked_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('completed_at', { useTz: true });
      t.timestamp('deleted_at', { useTz: true });
    });
    await knex.raw(`create index reports_pending_idx on ??.reports (created_at) where status = 'PENDING'`, [
      schema,
    ]);
    await knex.raw(
      `create index reports_retention_idx on ??.reports (completed_at) where status in ('COMPLETE', 'ERROR')`,
      [schema],
    );

    await s().createTable('pii_access_log', (t) => {
      t.uuid('id').primary();
      t.string('account_id', 24).notNullable();
      t.text('token_id').notNullable();
      t.string('report_id', 24).notNullable();
      // REQUESTED or DOWNLOADED.
      t.text('action').notNullable();
      t.text('reason').notNullable();
      t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['account_id', 'occurred_at', 'id']);
      t.index(['occurred_at', 'id']);
    });

    await s().createTable('conversions', (t) => {
      t.uuid('id').primary();
      t.string('verification_id', 24).notNullable().index();
      t.string('account_id', 24).notNullable();
      t.decimal('amount', 20, 4).notNullable();
      t.string('currency', 3).notNullable();
      t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });

    await s().createTable('reverify_batches', (t) => {
      t.string('id', 24).primary();
      t.string('account_id', 24).notNullable();
      t.string('program_id', 24).notNullable();
      // PENDING, IN_PROGRESS or COMPLETE.
      t.text('status').notNullable();
      t.integer('total_records').notNullable();
      t.integer('records_processed').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('completed_at', { useTz: true });
    });
    await s().createTable('reverify_items', (t) => {
      t.string('batch_id', 24).notNullable().references('id').inTable(`${schema}.reverify_batches`);
      t.integer('position').notNullable();
      t.string('verification_id', 24).notNullable();
      // PENDING or DONE.
      t.text('status').notNullable().defaultTo('PENDING');
      // ELIGIBLE, NEEDS_REVIEW, INELIGIBLE, NO_PERSONAL_INFO, NOT_FOUND, or FAILED (no answer after every try).
      t.text('outcome');
      // Claims so far: an item whose call keeps failing ends FAILED instead of holding its batch forever.
      t.integer('attempts').notNullable().defaultTo(0);
      t.specificType('error_ids', 'text[]').notNullable().defaultTo('{}');
      t.text('current_step');
      t.bigInteger('organization_id');
      t.uuid('lease');
      t.timestamp('locked_until', { useTz: true });
      t.timestamp('processed_at', { useTz: true });
      t.primary(['batch_id', 'position']);
    });
    // The job's queue: pending items, oldest batch first.
    await knex.raw(
      `create index reverify_items_pending_idx on ??.reverify_items (batch_id, position) where status = 'PENDING'`,
      [schema],
    );
  },
};
