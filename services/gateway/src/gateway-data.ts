import {
  createDb,
  createFieldCipher,
  migrateSchema,
  PeriodicJob,
  pingDb,
  type Knex,
  type ModuleDeps,
} from '@eligo/runtime';
import {
  createRateLimiters,
  rateLimitsMigration,
  type RateLimiters,
  type RateLimitSettings,
} from './http/rate-limits';
import { createIdempotencyStore, idempotencyMigration, type IdempotencyStore } from './idempotency/store';

const DAY_MS = 86_400_000;

/**
 * The gateway's own schema: what it keeps (Idempotency-Key answers, rate-limit counters shared by replicas)
 * lives here, with its pool and purge job.
 */
export interface GatewayData {
  store: IdempotencyStore;
  limits: RateLimiters;
  migrate(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  ready(): Promise<boolean>;
}

export function createGatewayData(
  deps: ModuleDeps,
  options: { poolMax: number; lockMs: number; limits: RateLimitSettings },
): GatewayData {
  const schema = 'gateway';
  const db: Knex = createDb({
    url: deps.databaseUrl,
    schema,
    poolMax: options.poolMax,
    applicationName: 'eligo-gateway',
  });
  const store = createIdempotencyStore({
    db,
    schema,
    cipher: createFieldCipher(deps.encryptionKey, 'gateway.idempotency'),
    retentionMs: DAY_MS,
    lockMs: options.lockMs,
  });
  const purge = new PeriodicJob({
    name: 'idempotency-purge',
    intervalMs: 60_000,
    run: () => store.purgeExpired(1000),
    logger: deps.logger,
  });
  const migrate = async () => {
    const applied = await migrateSchema(db, schema, [idempotencyMigration, rateLimitsMigration]);
    if (applied.length > 0) deps.logger.info({ schema, applied }, 'migrations applied');
  };
  return {
    store,
    limits: createRateLimiters(db, schema, options.limits, deps.logger),
    migrate,
    async start() {
      await migrate();
      purge.start();
    },
    async stop() {
      await purge.stop();
      await db.destroy();
    },
    ready: () => pingDb(db),
  };
}
