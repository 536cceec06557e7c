import {
  componentLogger,
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
import type { StaffAuthentication } from './auth/authenticator';
import { signInLimit } from './staff/sign-in-limit';
import { createStaffAccess, type StaffSettings } from './staff/staff-access';
import { staffMigration } from './staff/store';

const DAY_MS = 86_400_000;

/**
 * The gateway's own schema: what it keeps (Idempotency-Key answers, rate-limit counters shared by replicas,
 * staff identities with their sessions and the admin API's audit log) lives here, with its pool and purge
 * jobs.
 */
export interface GatewayData {
  store: IdempotencyStore;
  limits: RateLimiters;
  staff: StaffAuthentication;
  migrate(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  ready(): Promise<boolean>;
}

export function createGatewayData(
  deps: ModuleDeps,
  options: {
    poolMax: number;
    preparedStatements: boolean;
    lockMs: number;
    limits: RateLimitSettings;
    staff: StaffSettings & { signInPerMinute: number };
  },
): GatewayData {
  const schema = 'gateway';
  const db: Knex = createDb({
    url: deps.databaseUrl,
    schema,
    poolMax: options.poolMax,
    applicationName: 'eligo-gateway',
    preparedStatements: options.preparedStatements,
    logger: deps.logger,
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
  const staffLogger = componentLogger(deps.logger, 'staff');
  const staff = createStaffAccess({
    db,
    schema,
    encryptionKey: deps.encryptionKey,
    settings: options.staff,
    logger: staffLogger,
  });
  const sessionPurge = new PeriodicJob({
    name: 'staff-session-purge',
    intervalMs: 10 * 60_000,
    run: () => staff.purgeSessions(1000),
    logger: deps.logger,
  });
  const migrate = async () => {
    const applied = await migrateSchema(db, schema, [
      idempotencyMigration,
      rateLimitsMigration,
      staffMigration,
    ]);
    if (applied.length > 0) deps.logger.info({ schema, applied }, 'migrations applied');
  };
  return {
    store,
    limits: createRateLimiters(db, schema, options.limits, deps.logger),
    staff: {
      access: staff,
      signInLimit: signInLimit(db, schema, options.staff.signInPerMinute, staffLogger),
    },
    migrate,
    async start() {
      await migrate();
      purge.start();
      sessionPurge.start();
    },
    async stop() {
      await purge.stop();
      await sessionPurge.stop();
      await db.destroy();
    },
    ready: () => pingDb(db),
  };
}
