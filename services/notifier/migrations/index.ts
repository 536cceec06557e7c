import type { SchemaMigration } from '@eligo/runtime';
import { notifier } from './001_notifier';
import { deliveryTraceParent } from './002_delivery_trace_parent';
import { emailLoopMessages } from './003_email_loop_messages';

/**
 * Migrations of the notifier schema, applied in name order after the shared outbox and inbox tables
 * (tracked in notifier.knex_migrations). Add one file per change; never edit an applied one.
 */
export const migrations: readonly SchemaMigration[] = [notifier, deliveryTraceParent, emailLoopMessages];
