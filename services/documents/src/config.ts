import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the documents service only (ELIGO_DOCUMENTS_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_DOCUMENTS_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
});

export interface DocumentsConfig {
  schema: string;
  poolMax: number;
}

export function loadDocumentsConfig(config: Config): DocumentsConfig {
  const env = loadServiceConfig(schema, config.env);
  return { schema: 'documents', poolMax: env.ELIGO_DOCUMENTS_DB_POOL_MAX ?? config.database.poolMax };
}
