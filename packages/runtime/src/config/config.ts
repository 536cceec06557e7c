import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseMasterKey } from '../crypto/field-cipher';
import { kafkaSecurity } from './kafka-security';
import { envSchema, type ModuleName } from './schema';

/**
 * The effective configuration every module receives (never read process.env below main/CLI): what loadConfig
 * builds, so that the type and the loading are one piece of code.
 */
export type Config = ReturnType<typeof loadConfig>;

type Env = z.output<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the ELIGO_* environment once; throws ConfigError naming every bad variable (fail fast at boot). */
export function loadConfig(env: Record<string, string | undefined>) {
  const parsed = envSchema.safeParse(pickEligo(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const issues: string[] = [];
  const s3 = s3Settings(e, issues);
  const brokers = e.ELIGO_KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (brokers) {
    for (const b of brokers)
      if (!/^[^\s:]+:\d+$/.test(b)) issues.push(`ELIGO_KAFKA_BROKERS: "${b}" is not host:port`);
  }
  let encryptionKey: Buffer | undefined;
  if (e.ELIGO_ENCRYPTION_KEY) {
    try {
      encryptionKey = parseMasterKey(e.ELIGO_ENCRYPTION_KEY);
    } catch (err) {
      issues.push(`ELIGO_ENCRYPTION_KEY: ${(err as Error).message}`);
    }
  }
  const kafkaConnection = kafkaSecurity(e, issues);
  const internalTokens = readInternalTokens(e.ELIGO_INTERNAL_TOKEN_FILE, e.ELIGO_INTERNAL_TOKEN, issues);
  if (issues.length > 0) throw new ConfigError(issues);

  const addresses = grpcAddresses(pickEligo(env));
  return {
    http: {
      host: e.ELIGO_BIND_HOST,
      port: e.ELIGO_HTTP_PORT,
      publicBaseUrl: (e.ELIGO_PUBLIC_BASE_URL ?? `http://localhost:${e.ELIGO_HTTP_PORT}`).replace(/\/+$/, ''),
      bodyLimit: e.ELIGO_HTTP_BODY_LIMIT,
    },
    grpc: {
      /** The interface set by ELIGO_GRPC_BIND_HOST; undefined lets the launcher choose (see grpcBindHost). */
      bindHost: e.ELIGO_GRPC_BIND_HOST,
      /** ELIGO_BIND_HOST, the fallback of a split process. */
      host: e.ELIGO_BIND_HOST,
      port: e.ELIGO_GRPC_PORT,
      deadlineMs: e.ELIGO_GRPC_DEADLINE_MS,
      /** ELIGO_<NAME>_GRPC_ADDRESS by module name (lower case): where modules outside this process listen. */
      addresses,
      /** Internal call tokens: the first is sent, any is accepted. Empty: calls are not authenticated. */
      internalTokens,
      /** ELIGO_GRPC_INSECURE: listen beyond loopback without tokens anyway. */
      allowInsecure: e.ELIGO_GRPC_INSECURE,
      /** ELIGO_GRPC_IN_PROCESS: calls to a module of this same process skip the socket (grpc/in-process.ts). */
      inProcess: e.ELIGO_GRPC_IN_PROCESS,
    },
    dataDir: resolve(e.ELIGO_DATA_DIR),
    /** Operator token for the admin API; undefined until the launcher generates (and prints) one. */
    adminToken: e.ELIGO_ADMIN_TOKEN,
    /** Master key for data at rest; undefined until the launcher resolves it (embedded default). */
    encryptionKey,
    logLevel: e.ELIGO_LOG_LEVEL,
    database: {
      url: e.ELIGO_DATABASE_URL,
      poolMax: e.ELIGO_DB_POOL_MAX,
      /** ELIGO_DB_PREPARED_STATEMENTS: statements with parameters prepared once per connection. */
      preparedStatements: e.ELIGO_DB_PREPARED_STATEMENTS,
    },
    kafka: {
      brokers: brokers && brokers.length > 0 ? brokers : undefined,
      clientId: e.ELIGO_KAFKA_CLIENT_ID,
      groupPrefix: e.ELIGO_KAFKA_GROUP_PREFIX,
      /** ELIGO_KAFKA_FETCH_MIN_BYTES and ELIGO_KAFKA_FETCH_MAX_WAIT_MS: how a consumer's fetch waits for events. */
      fetch: { minBytes: e.ELIGO_KAFKA_FETCH_MIN_BYTES, maxWaitMs: e.ELIGO_KAFKA_FETCH_MAX_WAIT_MS },
      /** TLS and SASL of every Kafka client (ELIGO_KAFKA_SSL*, ELIGO_KAFKA_SASL_*); files read at start. */
      security: kafkaConnection,
    },
    s3,
    shutdownGraceMs: e.ELIGO_SHUTDOWN_GRACE_MS,
    /** ELIGO_SHUTDOWN_DELAY_MS: the drain window after SIGTERM, serving while unready, before closing. */
    shutdownDelayMs: e.ELIGO_SHUTDOWN_DELAY_MS,
    outboxPollMs: e.ELIGO_OUTBOX_POLL_MS,
    /** ELIGO_OUTBOX_LINGER_MS: a busy relay's batches start at most this often (events gather meanwhile). */
    outboxLingerMs: e.ELIGO_OUTBOX_LINGER_MS,
    /** Failures in a row after which a consumer parks an event (outages excepted). */
    eventMaxAttempts: e.ELIGO_EVENT_MAX_ATTEMPTS,
    /** The raw ELIGO_* variables, for each service's own zod schema (services/<name>/src/config.ts). */
    env: Object.freeze(pickEligo(env)),
  };
}

/** The object store, when ELIGO_S3_ENDPOINT names one (with its keys). */
function s3Settings(e: Env, issues: string[]) {
  if (!e.ELIGO_S3_ENDPOINT) return undefined;
  if (!e.ELIGO_S3_ACCESS_KEY || !e.ELIGO_S3_SECRET_KEY) {
    issues.push('ELIGO_S3_ACCESS_KEY and ELIGO_S3_SECRET_KEY are required with ELIGO_S3_ENDPOINT');
    return undefined;
  }
  return {
    endpoint: e.ELIGO_S3_ENDPOINT,
    accessKey: e.ELIGO_S3_ACCESS_KEY,
    secretKey: e.ELIGO_S3_SECRET_KEY,
    bucket: e.ELIGO_S3_BUCKET,
    region: e.ELIGO_S3_REGION,
    pathStyle: e.ELIGO_S3_PATH_STYLE,
  };
}

/**
 * Tokens of internal calls, from the file (a mounted Secret) or the variable: comma-separated, each 32-256
 * visible ASCII characters, since they travel as gRPC metadata values and must resist guessing.
 */
function readInternalTokens(file: string | undefined, value: string | undefined, issues: string[]): string[] {
  let raw = value;
  const source = file ? 'ELIGO_INTERNAL_TOKEN_FILE' : 'ELIGO_INTERNAL_TOKEN';
  if (file) {
    try {
      raw = readFileSync(file, 'utf8');
    } catch (err) {
      issues.push(`ELIGO_INTERNAL_TOKEN_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`);
      return [];
    }
  }
  const tokens = (raw ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (file && tokens.length === 0) issues.push(`ELIGO_INTERNAL_TOKEN_FILE: ${file} holds no token`);
  for (const [i, t] of tokens.entries())
    if (!/^[\x21-\x7e]{32,256}$/.test(t))
      issues.push(
        `${source}: token ${i + 1} must be 32-256 visible ASCII characters (commas separate tokens)`,
      );
  return tokens;
}

/**
 * Split deployment: where each module outside this process serves gRPC, from every ELIGO_<NAME>_GRPC_ADDRESS
 * (any name: the modules are the entry point's, not the runtime's). Blank values count as unset.
 */
function grpcAddresses(eligo: Record<string, string>): Record<ModuleName, string | undefined> {
  const addresses: Record<ModuleName, string | undefined> = {};
  for (const [key, value] of Object.entries(eligo)) {
    const name = /^ELIGO_([A-Z][A-Z0-9]*)_GRPC_ADDRESS$/.exec(key)?.[1];
    if (name && value.trim() !== '') addresses[name.toLowerCase()] = value.trim();
  }
  return addresses;
}

function pickEligo(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (k.startsWith('ELIGO_') && v !== undefined) out[k] = v;
  return out;
}

/** Parses a service's own ELIGO_<SERVICE>_* settings with its zod schema (services/<name>/src/config.ts). */
export function loadServiceConfig<T extends z.ZodType>(
  schema: T,
  env: Record<string, string | undefined>,
): z.infer<T> {
  const parsed = schema.safeParse(pickEligo(env));
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  return parsed.data;
}
