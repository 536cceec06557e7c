import type { SchemaMigration } from '@eligo/runtime';

/**
 * add_school_requests.tracking_id: the client's own identifier sent with an add-school request (trackingId
 * of POST /organization/addSchool), shown to operators with the request. Not the requester's personal data:
 * stored in the clear. Null when none was sent.
 */
export const addSchoolTrackingId: SchemaMigration = {
  name: '004_add_school_tracking_id',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('add_school_requests', (t) => {
      t.text('tracking_id').nullable();
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('add_school_requests', (t) => {
      t.dropColumn('tracking_id');
    });
  },
};
