import type { SchemaMigration } from '@eligo/runtime';

/**
 * The staff console's review queue (issue 21):
 *
 * - the verification's segment, learnt from its docUpload context when the files are announced (uploads) and
 *   copied to the review when they are submitted. Rows written before have none (null): the documents service
 *   cannot learn it afterwards, so they are found only without a segment filter.
 * - a claim: who holds the review (`operator` or `staff:<staffId>`, as decided_by) until when. A claim whose
 *   lease ran out is no claim; nothing sweeps it, the next claim overwrites it.
 * - the queue filtered by program or by segment, by status, in submission order (both directions walk the
 *   same index).
 * - file_reads: every read of a review's file by staff (who, which file, when), written before the first byte
 *   leaves, like the reports service's PII access log. Ids and the reader only: no personal data.
 */
export const reviewQueue: SchemaMigration = {
  name: '002_review_queue',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('uploads', (t) => {
      t.text('segment');
    });
    await knex.schema.withSchema(schema).alterTable('reviews', (t) => {
      t.text('segment');
      t.text('claimed_by');
      t.timestamp('claim_expires_at', { useTz: true });
    });
    await knex.raw(
      `create index reviews_program_queue_idx on ??.reviews (program_id, status, submitted_at, id)`,
      [schema],
    );
    await knex.raw(
      `create index reviews_segment_queue_idx on ??.reviews (segment, status, submitted_at, id)`,
      [schema],
    );

    await knex.schema.withSchema(schema).createTable('file_reads', (t) => {
      t.uuid('id').primary();
      t.uuid('review_id').notNullable().references('id').inTable(`${schema}.reviews`);
      t.uuid('document_id').notNullable().references('id').inTable(`${schema}.documents`);
      // `operator` or `staff:<staffId>`.
      t.text('reader').notNullable();
      t.timestamp('read_at', { useTz: true }).notNullable();
    });
    // Who read a review's files, in time order.
    await knex.raw(`create index file_reads_review_idx on ??.file_reads (review_id, read_at)`, [schema]);
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTable('file_reads');
    await knex.raw('drop index ??.reviews_segment_queue_idx', [schema]);
    await knex.raw('drop index ??.reviews_program_queue_idx', [schema]);
    await knex.schema.withSchema(schema).alterTable('reviews', (t) => {
      t.dropColumns('segment', 'claimed_by', 'claim_expires_at');
    });
    await knex.schema.withSchema(schema).alterTable('uploads', (t) => {
      t.dropColumn('segment');
    });
  },
};
