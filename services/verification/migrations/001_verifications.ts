import type { SchemaMigration } from '@eligo/runtime';

/**
 * Verifications. The person's data is one AES-256-GCM blob (purpose verification.person, bound to the
 * verification id); the person limit finds earlier successes through HMACs of the normalised email and of
 * name + birth date, never through the plain values. last_response is the verification response as last
 * returned (ids, steps, codes: no PII), so GET answers without recomputing it.
 */
export const verifications: SchemaMigration = {
  name: '001_verifications',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('verifications', (t) => {
      t.string('id', 24).primary();
      t.string('program_id', 24).notNullable();
      t.string('account_id', 24).notNullable();
      t.text('tracking_id');
      t.text('segment').notNullable();
      t.text('sub_segment');
      t.text('current_step').notNullable();
      t.boolean('test_mode').notNullable();
      t.specificType('error_ids', 'text[]').notNullable().defaultTo('{}');
      t.text('reward_code');
      t.binary('person');
      t.binary('metadata');
      t.binary('person_email_hash');
      t.binary('person_identity_hash');
      t.bigInteger('organization_id');
      t.text('organization_name');
      t.text('country');
      t.text('verification_method');
      t.integer('doc_upload_rejection_count').notNullable().defaultTo(0);
      t.specificType('doc_upload_rejection_reasons', 'text[]').notNullable().defaultTo('{}');
      t.integer('instant_match_attempts').notNullable().defaultTo(0);
      t.jsonb('last_response').notNullable();
      t.timestamp('succeeded_at', { useTz: true });
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    // By tracking id (GET by tracking id, history): newest first.
    await knex.raw(
      `create index verifications_tracking_idx on ??.verifications (program_id, tracking_id, created_at desc)
        where tracking_id is not null`,
      [schema],
    );
    // The person limit: successes of a person in a program within a window.
    await knex.raw(
      `create index verifications_person_email_idx on ??.verifications (program_id, person_email_hash, succeeded_at)
        where succeeded_at is not null`,
      [schema],
    );
    await knex.raw(
      `create index verifications_person_identity_idx on ??.verifications
        (program_id, person_identity_hash, succeeded_at) where succeeded_at is not null`,
      [schema],
    );
    // The expiry sweep reads only unfinished verifications, oldest deadline first.
    await knex.raw(
      `create index verifications_expiry_idx on ??.verifications (expires_at)
        where current_step not in ('success', 'error')`,
      [schema],
    );
  },
};
