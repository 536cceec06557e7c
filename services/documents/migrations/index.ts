import type { SchemaMigration } from '@eligo/runtime';
import { documents } from './001_documents';
import { reviewQueue } from './002_review_queue';

/**
 * Migrations of the documents schema, applied in name order after the shared outbox and inbox tables
 * (tracked in documents.knex_migrations). Add one file per change; never edit an applied one.
 */
export const migrations: readonly SchemaMigration[] = [documents, reviewQueue];
