import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the gateway only (ELIGO_GATEWAY_*); shared ones come from the runtime Config. */
const schema = z.object({
  // GET /info asks every module; a slow one must not hold the answer for the whole default deadline.
  ELIGO_GATEWAY_INFO_DEADLINE_MS: z.coerce.number().int().min(50).max(30_000).default(1500),
  // How long a successful token check is reused without asking the programs service again. Revocation
  // events drop entries at once; the TTL bounds staleness when an event is late. 0 turns the cache off.
  ELIGO_GATEWAY_AUTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  // Largest organization import file (POST /rest/admin/v1/organizations). The body is streamed, never held
  // in memory, so this bounds how long one import may keep the organizations service busy, not memory.
  ELIGO_GATEWAY_IMPORT_MAX_BYTES: z.coerce.number().int().min(1).default(104_857_600),
  // One import batch (500 rows) is one call that writes many rows: it gets longer than the default deadline.
  ELIGO_GATEWAY_IMPORT_BATCH_DEADLINE_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
  // GET /rest/v2/report/{id} streams the whole CSV in one DownloadReport call, whose deadline covers the
  // stream: a large report read by a slow client needs minutes, not the default deadline.
  ELIGO_GATEWAY_REPORT_DOWNLOAD_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(600_000),
});

export interface GatewayConfig {
  infoDeadlineMs: number;
  authCacheMs: number;
  importMaxBytes: number;
  importBatchDeadlineMs: number;
  reportDownloadDeadlineMs: number;
}

export function loadGatewayConfig(config: Config): GatewayConfig {
  const env = loadServiceConfig(schema, config.env);
  return {
    infoDeadlineMs: env.ELIGO_GATEWAY_INFO_DEADLINE_MS,
    authCacheMs: env.ELIGO_GATEWAY_AUTH_CACHE_MS,
    importMaxBytes: env.ELIGO_GATEWAY_IMPORT_MAX_BYTES,
    importBatchDeadlineMs: env.ELIGO_GATEWAY_IMPORT_BATCH_DEADLINE_MS,
    reportDownloadDeadlineMs: env.ELIGO_GATEWAY_REPORT_DOWNLOAD_DEADLINE_MS,
  };
}
