import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the documents service only (ELIGO_DOCUMENTS_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_DOCUMENTS_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  // Lifetime of an upload token (the gateway's upload URL of one file): the client sends the bytes within it.
  ELIGO_DOCUMENTS_UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  // Files of a decided review are deleted from the object store this long after the decision (the rows stay).
  ELIGO_DOCUMENTS_RETENTION_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(365 * 86_400)
    .default(7 * 86_400),
  // How often the retention job looks for files to delete and abandoned uploads to cancel.
  ELIGO_DOCUMENTS_RETENTION_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  // Lifetime of the links staff open to read a review's files.
  ELIGO_DOCUMENTS_REVIEW_LINK_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  // Each call to the verification service; the gateway's own deadline is longer.
  ELIGO_DOCUMENTS_DEPENDENCY_DEADLINE_MS: z.coerce.number().int().min(100).max(10_000).default(3000),
});

export interface DocumentsConfig {
  schema: string;
  poolMax: number;
  uploadUrlTtlMs: number;
  retentionMs: number;
  retentionSweepMs: number;
  reviewLinkSeconds: number;
  dependencyDeadlineMs: number;
}

export function loadDocumentsConfig(config: Config): DocumentsConfig {
  const env = loadServiceConfig(schema, config.env);
  return {
    schema: 'documents',
    poolMax: env.ELIGO_DOCUMENTS_DB_POOL_MAX ?? config.database.poolMax,
    uploadUrlTtlMs: env.ELIGO_DOCUMENTS_UPLOAD_URL_TTL_SECONDS * 1000,
    retentionMs: env.ELIGO_DOCUMENTS_RETENTION_SECONDS * 1000,
    retentionSweepMs: env.ELIGO_DOCUMENTS_RETENTION_SWEEP_MS,
    reviewLinkSeconds: env.ELIGO_DOCUMENTS_REVIEW_LINK_SECONDS,
    dependencyDeadlineMs: env.ELIGO_DOCUMENTS_DEPENDENCY_DEADLINE_MS,
  };
}
