import type { SchemaMigration } from '@eligo/runtime';
import { reports } from './001_reports';

/**
 * Migrations of the reports schema, applied in name order after the shared outbox and inbox tables (tracked
 * in reports.knex_migrations). Add one file per change; never edit an applied one.
 */
export const migrations: readonly SchemaMigration[] = [reports];
