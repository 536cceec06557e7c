import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the organizations service only (ELIGO_ORGANIZATIONS_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_ORGANIZATIONS_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
});

export interface OrganizationsConfig {
  schema: string;
  poolMax: number;
}

export function loadOrganizationsConfig(config: Config): OrganizationsConfig {
  const env = loadServiceConfig(schema, config.env);
  return { schema: 'organizations', poolMax: env.ELIGO_ORGANIZATIONS_DB_POOL_MAX ?? config.database.poolMax };
}
