import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the verification service only (ELIGO_VERIFICATION_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_VERIFICATION_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
});

export interface VerificationConfig {
  schema: string;
  poolMax: number;
}

export function loadVerificationConfig(config: Config): VerificationConfig {
  const env = loadServiceConfig(schema, config.env);
  return { schema: 'verification', poolMax: env.ELIGO_VERIFICATION_DB_POOL_MAX ?? config.database.poolMax };
}
