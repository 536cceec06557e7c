import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  createLogger,
  launch,
  loadConfig,
  type Config,
  type ModuleDefinition,
  type ModuleName,
  type RunningProcess,
} from '@eligo/runtime';

/**
 * Integration tests of a service (docs/architecture.md, "Tests"): the real modules, launched in the test
 * process by the same launcher `eligo start` uses, on ports 0, against the suite's real Postgres (a fresh
 * database, so migrations run from scratch), Kafka and MinIO that the jest global setup provides
 * (ELIGO_TEST_*).
 */
export interface ServiceUnderTestOptions {
  modules: Partial<Record<ModuleName, ModuleDefinition>>;
  /** Modules to start (dependencies first, as `--target`). */
  targets: ModuleName[];
  /** Extra ELIGO_* settings (e.g. a short OAuth token lifetime). */
  env?: Record<string, string>;
  /** The operator token; a random one by default. */
  adminToken?: string;
  logLevel?: string;
  /**
   * Another process of the same deployment (split): this one takes its database, bus, bucket and keys
   * instead of fresh ones, and its stop leaves them to that process.
   */
  beside?: ServiceUnderTest;
}

export interface ServiceUnderTest {
  /** "127.0.0.1:<port>" of the process's gRPC server. */
  grpcAddress: string;
  /** "http://127.0.0.1:<port>" of its HTTP server (REST, health, metrics). */
  httpUrl: string;
  adminToken: string;
  /** The database the modules migrated (for assertions on stored rows). */
  databaseUrl: string;
  encryptionKey: Buffer;
  config: Config;
  running: RunningProcess;
  /** Graceful stop, then the data dir and the database (unless the process this one runs beside owns it) go. */
  stop(): Promise<void>;
}

export async function startServiceUnderTest(options: ServiceUnderTestOptions): Promise<ServiceUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), 'eligo-it-'));
  const { beside } = options;
  let database: { url: string; drop(): Promise<void> };
  try {
    database = beside ? { url: beside.databaseUrl, drop: async () => undefined } : await createTestDatabase();
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const adminToken =
    options.adminToken ?? beside?.adminToken ?? `eligo_admin_${randomBytes(18).toString('hex')}`;
  const encryptionKey = beside?.encryptionKey ?? randomBytes(32);
  const shared: Record<string, string> = beside
    ? { ...beside.config.env }
    : {
        ELIGO_BIND_HOST: '127.0.0.1',
        ELIGO_LOG_LEVEL: process.env.ELIGO_TEST_LOG_LEVEL ?? 'warn',
        ELIGO_ENCRYPTION_KEY: encryptionKey.toString('base64'),
        ELIGO_DATABASE_URL: database.url,
        ELIGO_KAFKA_BROKERS: required('ELIGO_TEST_KAFKA_BROKERS'),
        // Suites that run at once each get their own consumer groups on the shared broker.
        ELIGO_KAFKA_GROUP_PREFIX: `it-${randomBytes(4).toString('hex')}.`,
        // A new reports projection would otherwise replay every earlier suite's events from the shared broker.
        ELIGO_REPORTS_PROJECTION_START: 'latest',
        ELIGO_S3_ENDPOINT: required('ELIGO_TEST_S3_ENDPOINT'),
        ELIGO_S3_ACCESS_KEY: required('ELIGO_TEST_S3_ACCESS_KEY'),
        ELIGO_S3_SECRET_KEY: required('ELIGO_TEST_S3_SECRET_KEY'),
        ELIGO_S3_BUCKET: `it-${randomBytes(4).toString('hex')}`,
        ELIGO_OUTBOX_POLL_MS: '200',
        ELIGO_SHUTDOWN_GRACE_MS: '2000',
        // Suites create many tokenless verifications from one address; the limits have tests of their own.
        ELIGO_GATEWAY_PUBLIC_CREATE_PER_MINUTE: '0',
        ELIGO_GATEWAY_SEND_LINK_PER_HOUR: '0',
      };
  const config = loadConfig({
    ...shared,
    ...(options.logLevel && { ELIGO_LOG_LEVEL: options.logLevel }),
    ELIGO_HTTP_PORT: '0',
    ELIGO_GRPC_PORT: '0',
    ELIGO_DATA_DIR: dataDir,
    ELIGO_ADMIN_TOKEN: adminToken,
    ELIGO_KAFKA_CLIENT_ID: `it-${randomBytes(3).toString('hex')}`,
    ...options.env,
  });
  let running: RunningProcess;
  try {
    running = await launch({
      config,
      targets: options.targets,
      modules: options.modules as Record<ModuleName, ModuleDefinition>,
      logger: createLogger({ level: config.logLevel }),
      version: '0.0.0-test',
      gitCommit: '',
    });
  } catch (err) {
    await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const publicBase = `http://127.0.0.1:${running.info.httpPort}`;
  return {
    grpcAddress: `127.0.0.1:${running.info.grpcPort}`,
    httpUrl: publicBase,
    adminToken,
    databaseUrl: database.url,
    encryptionKey,
    config,
    running,
    async stop() {
      await running.shutdown('test done');
      await running.exited;
      await database.drop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh database on the suite's Postgres server; drop() removes it (forcing out leftover sessions). */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = required('ELIGO_TEST_DATABASE_URL');
  const name = `it_${randomBytes(6).toString('hex')}`;
  await withClient(admin, (c) => c.query(`create database ${name}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withClient(admin, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the jest global setup of @eligo/local-infra provides it)`);
  return value;
}
