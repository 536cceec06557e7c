import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the reports service only (ELIGO_REPORTS_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_REPORTS_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  // How long a finished report's data is kept; GET then answers 410. Default 7 days.
  ELIGO_REPORTS_RETENTION_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(7 * 24 * 3_600_000),
  // How often the retention purge runs.
  ELIGO_REPORTS_PURGE_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  // How often the orphan sweep lists the store's reports/ objects, and how old an object no report refers to
  // must be before it is deleted (a generator records its finished file a moment after the upload ends).
  ELIGO_REPORTS_ORPHAN_SWEEP_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  ELIGO_REPORTS_ORPHAN_GRACE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(900_000),
  // How often generators and the re-verification job look for queued work.
  ELIGO_REPORTS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  // A claim on a report or a re-verification item lapses after this unless renewed (a process that died).
  ELIGO_REPORTS_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  // Rows per cursor read and per personal-information call of the report worker (fewer people per call when
  // they carry metadata: app/report-worker.ts); a report without personal information is one COPY.
  ELIGO_REPORTS_BATCH_ROWS: z.coerce.number().int().min(1).max(1_000).default(1_000),
  // The old-space cap (MiB) of the worker thread that writes a report with personal information or a
  // re-verification report: it holds one batch at a time.
  ELIGO_REPORTS_WORKER_HEAP_MB: z.coerce.number().int().min(16).max(4_096).default(32),
  ELIGO_REPORTS_REVERIFY_MAX_IDS: z.coerce.number().int().min(1).max(100_000).default(10_000),
  ELIGO_REPORTS_REVERIFY_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // Where a new projection consumer group starts: 'earliest' builds the projection from the history Kafka
  // keeps (a first deployment); 'latest' only from now (test suites sharing one broker's long history).
  ELIGO_REPORTS_PROJECTION_START: z.enum(['earliest', 'latest']).default('earliest'),
  // Unary calls to the verification and programs services.
  ELIGO_REPORTS_DEPENDENCY_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  // One personal-information stream (1000 rows).
  ELIGO_REPORTS_PII_STREAM_DEADLINE_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
});

/** The settings as the service reads them, typed by the loader: no hand-written copy to keep in step. */
export type ReportsConfig = ReturnType<typeof loadReportsConfig>;

export function loadReportsConfig(config: Config) {
  const env = loadServiceConfig(schema, config.env);
  return {
    schema: 'reports',
    poolMax: env.ELIGO_REPORTS_DB_POOL_MAX ?? config.database.poolMax,
    retentionMs: env.ELIGO_REPORTS_RETENTION_MS,
    purgeIntervalMs: env.ELIGO_REPORTS_PURGE_INTERVAL_MS,
    orphanSweepMs: env.ELIGO_REPORTS_ORPHAN_SWEEP_MS,
    orphanGraceMs: env.ELIGO_REPORTS_ORPHAN_GRACE_MS,
    pollMs: env.ELIGO_REPORTS_POLL_MS,
    leaseMs: env.ELIGO_REPORTS_LEASE_MS,
    batchRows: env.ELIGO_REPORTS_BATCH_ROWS,
    workerHeapMb: env.ELIGO_REPORTS_WORKER_HEAP_MB,
    reverifyMaxIds: env.ELIGO_REPORTS_REVERIFY_MAX_IDS,
    reverifyConcurrency: env.ELIGO_REPORTS_REVERIFY_CONCURRENCY,
    dependencyDeadlineMs: env.ELIGO_REPORTS_DEPENDENCY_DEADLINE_MS,
    piiStreamDeadlineMs: env.ELIGO_REPORTS_PII_STREAM_DEADLINE_MS,
    projectionFromBeginning: env.ELIGO_REPORTS_PROJECTION_START === 'earliest',
  };
}
