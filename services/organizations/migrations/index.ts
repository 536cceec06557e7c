import type { Logger, SchemaMigration } from '@eligo/runtime';
import type { CatalogSeed } from '../src/config';
import { catalog } from './001_catalog';
import { seedCatalogMigration } from './002_seed_catalog';
import { loginUrl } from './003_login_url';
import { addSchoolTrackingId } from './004_add_school_tracking_id';
import { sso } from './005_sso';

/**
 * Migrations of the organizations schema, applied in name order after the shared outbox and inbox tables
 * (tracked in organizations.knex_migrations). Add one file per change; never edit an applied one. The seed
 * needs the config (seed or not) and a logger, hence a function rather than a constant list.
 */
export function migrationsFor(options: { seed: CatalogSeed; logger: Logger }): readonly SchemaMigration[] {
  return [
    catalog,
    seedCatalogMigration({ enabled: options.seed === 'swot', logger: options.logger }),
    loginUrl,
    addSchoolTrackingId,
    sso,
  ];
}
