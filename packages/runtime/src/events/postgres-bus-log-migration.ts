import type { SchemaMigration } from '../db/migrate';

/** The log's tables, migrated (in their own schema and migrations table) when the log is first used. */
export const busLogMigration: SchemaMigration = {
  name: '0001_eligo_bus_log',
  async up(knex, schema) {
    // A fresh builder per table: a knex schema builder accumulates its statements.
    const s = () => knex.schema.withSchema(schema);
    await s().createTable('topics', (t) => {
      t.text('name').primary();
      t.bigInteger('next_offset').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await s().createTable('messages', (t) => {
      t.text('topic').notNullable().references('name').inTable(`${schema}.topics`);
      t.bigInteger('offset').notNullable();
      t.text('key').notNullable();
      t.jsonb('headers').notNullable();
      t.binary('value').notNullable();
      t.timestamp('published_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['topic', 'offset']);
      t.index(['published_at'], 'messages_published_at_idx'); // retention
    });
    await s().createTable('positions', (t) => {
      t.text('group_id').notNullable();
      t.text('topic').notNullable();
      t.bigInteger('next_offset').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['group_id', 'topic']);
    });
  },
};
