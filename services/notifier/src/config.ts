import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the notifier service only (ELIGO_NOTIFIER_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_NOTIFIER_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
});

export interface NotifierConfig {
  schema: string;
  poolMax: number;
}

export function loadNotifierConfig(config: Config): NotifierConfig {
  const env = loadServiceConfig(schema, config.env);
  return { schema: 'notifier', poolMax: env.ELIGO_NOTIFIER_DB_POOL_MAX ?? config.database.poolMax };
}
