import type { SchemaMigration } from '@eligo/runtime';

/**
 * Program.webhook.notifications: the optional notifications besides success that the program opted in to
 * (WebhookNotification names without the prefix, e.g. DOCUMENT_REJECTED), deduplicated and sorted by the
 * domain before every write. Empty when there is no webhook: removing the webhook clears them.
 */
export const webhookNotifications: SchemaMigration = {
  name: '003_webhook_notifications',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.specificType('webhook_notifications', 'text[]').notNullable().defaultTo('{}');
      t.check(
        "webhook_notifications <@ array['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION']::text[]",
        [],
        'programs_webhook_notifications_known_check',
      );
      t.check(
        'webhook_callback_uri is not null or cardinality(webhook_notifications) = 0',
        [],
        'programs_webhook_notifications_need_webhook_check',
      );
    });
  },
  async down(knex, schema) {
    // Dropping the column drops the checks on it.
    await knex.schema.withSchema(schema).alterTable('programs', (t) => {
      t.dropColumn('webhook_notifications');
    });
  },
};
