import type { SchemaMigration } from '@eligo/runtime';

/**
 * The W3C traceparent of the span that made a delivery (null when tracing is off): attempts run later, in the
 * dispatcher, and continue that trace (docs/operations.md, "Tracing").
 */
export const deliveryTraceParent: SchemaMigration = {
  name: '002_delivery_trace_parent',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('deliveries', (t) => {
      t.text('trace_parent');
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('deliveries', (t) => {
      t.dropColumn('trace_parent');
    });
  },
};
