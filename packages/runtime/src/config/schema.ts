import { z } from 'zod';

/** Removes the line breaks at the end of a secret read from a file or a variable (`echo pw > file` adds one). */
export function trimLineBreaks(value: string): string {
  return value.replace(/[\r\n]+$/, '');
}

/**
 * A module's name (`--target`, `dependsOn`, ELIGO_<NAME>_GRPC_ADDRESS). Which modules exist is the business of
 * the entry point that composes them (the CLI's registry), not of the runtime.
 */
export type ModuleName = string;

const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
/** A secret as given, but for the line break a Secret or `echo` leaves at its end; blank counts as unset. */
const secretString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : trimLineBreaks(v)));
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .optional()
  .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v)));

/**
 * The ELIGO_* environment, validated once at boot
 * (docs/architecture.md, "Configuration and embedded defaults"). Unknown ELIGO_* keys are kept out.
 */
export const envSchema = z.object({
  ELIGO_HTTP_PORT: port.default(8080),
  ELIGO_GRPC_PORT: port.default(9090),
  ELIGO_BIND_HOST: z.string().default('0.0.0.0'),
  // The gRPC server's own interface; unset, it is 127.0.0.1 for all-in-one and ELIGO_BIND_HOST otherwise.
  ELIGO_GRPC_BIND_HOST: optionalString,
  // Shared secret(s) of internal gRPC calls, comma-separated (the first is sent, any is accepted: rotation).
  ELIGO_INTERNAL_TOKEN: optionalString,
  // The same read from a file (a mounted Kubernetes Secret); wins over ELIGO_INTERNAL_TOKEN.
  ELIGO_INTERNAL_TOKEN_FILE: optionalString,
  // Explicit consent to serve gRPC on a non-loopback address without a token (a mesh doing mTLS, say).
  ELIGO_GRPC_INSECURE: bool.default(false),
  // Calls between modules of one process skip the socket (grpc/in-process.ts); false sends them over loopback.
  ELIGO_GRPC_IN_PROCESS: bool.default(true),
  ELIGO_PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
  ELIGO_DATA_DIR: z.string().default('./.eligo'),
  ELIGO_ADMIN_TOKEN: optionalString.pipe(
    z.string().min(24, 'ELIGO_ADMIN_TOKEN must be at least 24 characters').optional(),
  ),
  // 32 bytes (64 hex or 44 base64 chars): master key for PII and secrets at rest. Required with
  // ELIGO_DATABASE_URL; the embedded default generates one in the data dir.
  ELIGO_ENCRYPTION_KEY: optionalString,
  ELIGO_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ELIGO_DATABASE_URL: optionalString.pipe(z.url().optional()),
  ELIGO_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(5),
  // Statements prepared once per connection (db/prepared-statements.ts); false behind a transaction-mode pooler.
  ELIGO_DB_PREPARED_STATEMENTS: bool.default(true),
  ELIGO_KAFKA_BROKERS: optionalString,
  ELIGO_KAFKA_CLIENT_ID: z.string().default('eligo'),
  // TLS to the brokers, trusting the PEM bundle of ELIGO_KAFKA_SSL_CA_FILE when set (else Node's default CAs).
  ELIGO_KAFKA_SSL: bool.default(false),
  ELIGO_KAFKA_SSL_CA_FILE: optionalString,
  // SASL, when a mechanism is set (any case: MSK and Confluent write them in upper case); the password from the
  // variable or a file (a mounted Secret), never both. See config/kafka-security.ts.
  ELIGO_KAFKA_SASL_MECHANISM: optionalString
    .transform((v) => v?.toLowerCase())
    .pipe(z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional()),
  ELIGO_KAFKA_SASL_USERNAME: optionalString,
  ELIGO_KAFKA_SASL_PASSWORD: secretString,
  ELIGO_KAFKA_SASL_PASSWORD_FILE: optionalString,
  // Prepended to every consumer group: deployments (or parallel test suites) sharing one Kafka cluster must
  // not share groups, or each would take the others' events.
  ELIGO_KAFKA_GROUP_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/, 'ELIGO_KAFKA_GROUP_PREFIX may hold letters, digits, ".", "_" and "-" only')
    .default(''),
  // How a consumer's fetch waits at the broker for events to gather (Kafka's fetch.min.bytes and fetch.max.wait.ms):
  // a fetch answers once this many bytes are there or the wait is over, so that under load each group's
  // transaction and offset commit carry several events instead of one (docs/benchmarks.md, "Verification flow").
  // The wait is an event's added latency per hop when traffic is light, and what a stop or rebalance waits for.
  ELIGO_KAFKA_FETCH_MIN_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(16 * 1024 * 1024)
    .default(64 * 1024),
  ELIGO_KAFKA_FETCH_MAX_WAIT_MS: z.coerce.number().int().min(1).max(10_000).default(100),
  ELIGO_S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  ELIGO_S3_ACCESS_KEY: optionalString,
  ELIGO_S3_SECRET_KEY: optionalString,
  ELIGO_S3_BUCKET: z.string().default('eligo'),
  ELIGO_S3_REGION: z.string().default('us-east-1'),
  ELIGO_S3_PATH_STYLE: bool.default(true),
  ELIGO_GRPC_DEADLINE_MS: z.coerce.number().int().min(50).max(120_000).default(5000),
  ELIGO_HTTP_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'use e.g. 100kb or 1mb')
    .default('1mb'),
  ELIGO_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  // On SIGTERM: how long to keep serving with /readyz 503 (gRPC health NOT_SERVING) before the listeners close,
  // so that load balancers stop sending traffic first (the Kubernetes preStop convention). 0 closes at once.
  ELIGO_SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(5000),
  // A consumer failing this many times in a row on one event (outages excepted) parks it and moves on.
  ELIGO_EVENT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(10),
  ELIGO_OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  // A busy outbox relay starts its next batch no sooner than this after the last one started, so that several
  // flows' events go in one transaction and one publish (docs/benchmarks.md, "Verification flow"); 0: at once.
  ELIGO_OUTBOX_LINGER_MS: z.coerce.number().int().min(0).max(1000).default(20),
});
export type EligoEnv = z.infer<typeof envSchema>;
