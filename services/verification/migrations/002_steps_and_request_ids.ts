import type { SchemaMigration } from '@eligo/runtime';

/**
 * The history of steps staff see (admin REST): one row per change, no person data. And the request ids
 * that make a retried call idempotent: last_request_id is the call that last changed the verification,
 * start_request_id the call that started it (unique, so a retried start finds its verification).
 */
export const stepsAndRequestIds: SchemaMigration = {
  name: '002_steps_and_request_ids',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('verification_steps', (t) => {
      t.bigIncrements('id').primary();
      t.string('verification_id', 24)
        .notNullable()
        .references('id')
        .inTable(`${schema}.verifications`)
        .onDelete('CASCADE');
      t.text('step').notNullable();
      t.text('previous_step').notNullable().defaultTo('');
      t.text('trigger').notNullable();
      t.specificType('error_ids', 'text[]').notNullable().defaultTo('{}');
      t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      // The staff view reads a verification's steps in order.
      t.index(['verification_id', 'id'], 'verification_steps_verification_idx');
    });
    await knex.schema.withSchema(schema).alterTable('verifications', (t) => {
      t.string('last_request_id', 64);
      t.string('start_request_id', 64);
    });
    await knex.raw(
      `create unique index verifications_start_request_idx on ??.verifications (start_request_id)
        where start_request_id is not null`,
      [schema],
    );
  },
};
