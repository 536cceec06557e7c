import type { SchemaMigration } from '../db/migrate';
import { createInboxTable, dropInboxTable } from './inbox';
import { createOutboxTable, dropOutboxTable } from './outbox';

/**
 * The outbox and inbox tables every service schema has, applied before the service's own migrations
 * (the name sorts first).
 */
export const outboxInboxMigration: SchemaMigration = {
  name: '0000_eligo_outbox_inbox',
  async up(knex, schema) {
    await createOutboxTable(knex, schema);
    await createInboxTable(knex, schema);
  },
  async down(knex, schema) {
    await dropInboxTable(knex, schema);
    await dropOutboxTable(knex, schema);
  },
};
