import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the programs service only (ELIGO_PROGRAMS_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_PROGRAMS_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
});

export interface ProgramsConfig {
  schema: string;
  poolMax: number;
}

export function loadProgramsConfig(config: Config): ProgramsConfig {
  const env = loadServiceConfig(schema, config.env);
  return { schema: 'programs', poolMax: env.ELIGO_PROGRAMS_DB_POOL_MAX ?? config.database.poolMax };
}
