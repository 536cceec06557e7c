import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';
import { staffOidcSettings } from './staff/oidc-config';

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
  // The gateway's own pool (Idempotency-Key records): one query per POST carrying a key, two at most.
  ELIGO_GATEWAY_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(5),
  // How long a request holds its Idempotency-Key unless renewed (a running request renews it every third of
  // this): after a gateway died, its clients' retries wait at most this long before they run again.
  ELIGO_GATEWAY_IDEMPOTENCY_LOCK_MS: z.coerce.number().int().min(3000).max(600_000).default(15_000),
  // Tokenless creations (a browser's POST /verification, /verification/marketplace, /organization/addSchool)
  // per client address per minute, counted across replicas; 0 turns the limit off.
  ELIGO_GATEWAY_PUBLIC_CREATE_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(60),
  // Send-link messages per program and recipient per hour (a token holder must not flood a person); 0: off.
  ELIGO_GATEWAY_SEND_LINK_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(5),
  // Express's "trust proxy": false (default: the client address is the socket's), true, a hop count, or
  // addresses/CIDRs of the proxies (comma-separated). Set it behind a load balancer, or every client shares
  // the balancer's address in the rate limits.
  ELIGO_GATEWAY_TRUST_PROXY: z.string().default('false'),
  // Staff sessions of the admin API and the console: how long one lasts at most after its sign-in, and how
  // long it may go unused (each request pushes this end on, never past the first).
  ELIGO_GATEWAY_STAFF_SESSION_LIFETIME_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(30 * 86_400_000)
    .default(12 * 3_600_000),
  ELIGO_GATEWAY_STAFF_SESSION_IDLE_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(30 * 86_400_000)
    .default(30 * 60_000),
  // Wrong passwords in a row that lock a staff account, and for how long (the right password is refused too).
  ELIGO_GATEWAY_STAFF_LOCKOUT_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(5),
  ELIGO_GATEWAY_STAFF_LOCKOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(86_400_000)
    .default(15 * 60_000),
  // Console sign-ins per client address per minute, counted across replicas; 0 turns the limit off.
  ELIGO_GATEWAY_STAFF_SIGN_IN_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(10),
  // Staff sign-in through the operator's OpenID provider (staff/oidc-config.ts); off without an issuer.
  ELIGO_GATEWAY_STAFF_OIDC_ISSUER: z.string().optional(),
  ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: z.string().optional(),
  ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET: z.string().optional(),
  ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE: z.string().optional(),
  ELIGO_GATEWAY_STAFF_OIDC_SCOPES: z.string().default('openid email profile'),
  ELIGO_GATEWAY_STAFF_OIDC_LABEL: z.string().max(60).default('your organization'),
});

/** The settings as the service reads them, typed by the loader: no hand-written copy to keep in step. */
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(config: Config) {
  const env = loadServiceConfig(schema, config.env);
  return {
    infoDeadlineMs: env.ELIGO_GATEWAY_INFO_DEADLINE_MS,
    authCacheMs: env.ELIGO_GATEWAY_AUTH_CACHE_MS,
    importMaxBytes: env.ELIGO_GATEWAY_IMPORT_MAX_BYTES,
    importBatchDeadlineMs: env.ELIGO_GATEWAY_IMPORT_BATCH_DEADLINE_MS,
    reportDownloadDeadlineMs: env.ELIGO_GATEWAY_REPORT_DOWNLOAD_DEADLINE_MS,
    poolMax: env.ELIGO_GATEWAY_DB_POOL_MAX,
    idempotencyLockMs: env.ELIGO_GATEWAY_IDEMPOTENCY_LOCK_MS,
    rateLimits: {
      publicCreatePerMinute: env.ELIGO_GATEWAY_PUBLIC_CREATE_PER_MINUTE,
      sendLinkPerHour: env.ELIGO_GATEWAY_SEND_LINK_PER_HOUR,
    },
    trustProxy: parseTrustProxy(env.ELIGO_GATEWAY_TRUST_PROXY),
    staff: {
      sessionLifetimeMs: env.ELIGO_GATEWAY_STAFF_SESSION_LIFETIME_MS,
      sessionIdleMs: env.ELIGO_GATEWAY_STAFF_SESSION_IDLE_MS,
      maxAttempts: env.ELIGO_GATEWAY_STAFF_LOCKOUT_ATTEMPTS,
      lockMs: env.ELIGO_GATEWAY_STAFF_LOCKOUT_MS,
      signInPerMinute: env.ELIGO_GATEWAY_STAFF_SIGN_IN_PER_MINUTE,
    },
    staffOidc: staffOidcSettings(env),
  };
}

/** ELIGO_GATEWAY_TRUST_PROXY as Express takes it: a boolean, a hop count, or a list of addresses/CIDRs. */
function parseTrustProxy(value: string): boolean | number | string[] {
  const v = value.trim();
  if (v === 'false' || v === '') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
