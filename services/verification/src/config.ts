import { z } from 'zod';
import { loadServiceConfig, allowCidrsSetting, type Config } from '@eligo/runtime';

/** Settings of the verification service only (ELIGO_VERIFICATION_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_VERIFICATION_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  // Unfinished verifications end (expiredVerification) this long after they started.
  ELIGO_VERIFICATION_EXPIRY_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24 * 7),
  // Each call to the programs and organizations services: a submission answers within the spec's 11-second
  // client budget even when one of them hangs (two calls in a row stay well under it).
  ELIGO_VERIFICATION_DEPENDENCY_DEADLINE_MS: z.coerce.number().int().min(100).max(5000).default(3000),
  // Instant-match sources (LIST, HTTP_SOURCE) of live programs: the longest one source is waited for, and the
  // time from a submission's arrival within which sources may be asked at all (what is left of it bounds each
  // deadline). With the dependency deadline before them and the transaction after, a submission still answers
  // inside the gateway's 10 s deadline and the spec's 11 s budget.
  ELIGO_VERIFICATION_INSTANT_SOURCE_DEADLINE_MS: z.coerce.number().int().min(100).max(5000).default(3000),
  ELIGO_VERIFICATION_INSTANT_SOURCES_BUDGET_MS: z.coerce.number().int().min(100).max(8000).default(6000),
  // The webhooks' address rule (SSRF guard), which HTTP sources follow too: non-public ranges still allowed.
  ELIGO_WEBHOOK_ALLOW_CIDRS: allowCidrsSetting,
  // How long a program read from the programs service, and an organization accepted for it, are kept (0:
  // never); edits apply within this time.
  ELIGO_VERIFICATION_PROGRAM_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  // How often the expiry sweep looks for verifications whose time is up (and emits VerificationExpired).
  ELIGO_VERIFICATION_EXPIRY_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
});

/** The settings as the service reads them, typed by the loader: no hand-written copy to keep in step. */
export type VerificationConfig = ReturnType<typeof loadVerificationConfig>;

export function loadVerificationConfig(config: Config) {
  const env = loadServiceConfig(schema, config.env);
  return {
    schema: 'verification',
    poolMax: env.ELIGO_VERIFICATION_DB_POOL_MAX ?? config.database.poolMax,
    expiryMs: Math.round(env.ELIGO_VERIFICATION_EXPIRY_HOURS * 3_600_000),
    dependencyDeadlineMs: env.ELIGO_VERIFICATION_DEPENDENCY_DEADLINE_MS,
    expirySweepMs: env.ELIGO_VERIFICATION_EXPIRY_SWEEP_MS,
    programCacheMs: env.ELIGO_VERIFICATION_PROGRAM_CACHE_MS,
    instantSourceDeadlineMs: env.ELIGO_VERIFICATION_INSTANT_SOURCE_DEADLINE_MS,
    instantSourcesBudgetMs: env.ELIGO_VERIFICATION_INSTANT_SOURCES_BUDGET_MS,
    webhookAllowCidrs: env.ELIGO_WEBHOOK_ALLOW_CIDRS,
  };
}
