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
  // How long a reviewer's claim on a review lasts (claiming again renews it): while it does, nobody else may
  // claim or decide the review.
  ELIGO_DOCUMENTS_REVIEW_CLAIM_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  // Where staff's review links point (the files are decrypted by this process's HTTP server, under
  // /review-files): the public base URL by default; a split deployment names the documents process here.
  ELIGO_DOCUMENTS_REVIEW_LINK_BASE_URL: z.url().optional(),
  // How often the orphan sweep lists the store's documents/ objects, and how old an object no document refers
  // to must be before it is deleted (an upload finishing right now is not an orphan).
  ELIGO_DOCUMENTS_ORPHAN_SWEEP_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  ELIGO_DOCUMENTS_ORPHAN_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(900),
  // Each call to the verification service; the gateway's own deadline is longer.
  ELIGO_DOCUMENTS_DEPENDENCY_DEADLINE_MS: z.coerce.number().int().min(100).max(10_000).default(3000),
});

/** The settings as the service reads them, typed by the loader: no hand-written copy to keep in step. */
export type DocumentsConfig = ReturnType<typeof loadDocumentsConfig>;

export function loadDocumentsConfig(config: Config) {
  const env = loadServiceConfig(schema, config.env);
  return {
    schema: 'documents',
    poolMax: env.ELIGO_DOCUMENTS_DB_POOL_MAX ?? config.database.poolMax,
    uploadUrlTtlMs: env.ELIGO_DOCUMENTS_UPLOAD_URL_TTL_SECONDS * 1000,
    retentionMs: env.ELIGO_DOCUMENTS_RETENTION_SECONDS * 1000,
    retentionSweepMs: env.ELIGO_DOCUMENTS_RETENTION_SWEEP_MS,
    reviewLinkSeconds: env.ELIGO_DOCUMENTS_REVIEW_LINK_SECONDS,
    reviewClaimMs: env.ELIGO_DOCUMENTS_REVIEW_CLAIM_SECONDS * 1000,
    reviewLinkBaseUrl: (env.ELIGO_DOCUMENTS_REVIEW_LINK_BASE_URL ?? config.http.publicBaseUrl).replace(
      /\/+$/,
      '',
    ),
    orphanSweepMs: env.ELIGO_DOCUMENTS_ORPHAN_SWEEP_MS,
    orphanGraceMs: env.ELIGO_DOCUMENTS_ORPHAN_GRACE_SECONDS * 1000,
    dependencyDeadlineMs: env.ELIGO_DOCUMENTS_DEPENDENCY_DEADLINE_MS,
  };
}
