import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the reports service only (ELIGO_REPORTS_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_REPORTS_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
});

export interface ReportsConfig {
  schema: string;
  poolMax: number;
}

export function loadReportsConfig(config: Config): ReportsConfig {
  const env = loadServiceConfig(schema, config.env);
  return { schema: 'reports', poolMax: env.ELIGO_REPORTS_DB_POOL_MAX ?? config.database.poolMax };
}
