import type { SchemaMigration } from '../db/migrate';
import { createInboxTable, dropInboxTable } from './inbox';
import { createOutboxTable, dropOutboxTable } from './outbox';
import { parkedEventsMigration } from './parked-events';

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

/**
 * The tables every service schema has before its own migrations: outbox and inbox, and the parked events
 * (parked-events.ts). Tests that migrate a schema by hand use this list too, or knex finds applied names missing.
 */
export const serviceBaseMigrations: readonly SchemaMigration[] = [
  outboxInboxMigration,
  parkedEventsMigration,
];
