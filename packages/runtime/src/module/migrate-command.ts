import { ParkedEventsRegistry } from './parked-events-service';
import { loadConfig } from '../config/config';
import type { ModuleName } from '../config/schema';
import { createLogger, componentLogger } from '../logging/logger';
import { createMetricsRegistry } from '../metrics/registry';
import { resolveAdminToken } from './admin-token';
import { resolveEncryptionKey } from './encryption-key';
import { buildInfoFor } from './build-info';
import type { ModuleDefinition } from './deps';
import { startInfrastructure } from './infrastructure';
import { parseTargets } from './targets';

/**
 * `eligo migrate`: applies the migrations of the target modules (each to its own schema) and exits, for a
 * Kubernetes Job or an operator before a rollout. Returns the exit code.
 */
export async function runMigrations(options: {
  env: Record<string, string | undefined>;
  target: string;
  modules: Partial<Record<ModuleName, ModuleDefinition>>;
  version: string;
}): Promise<number> {
  const config = loadConfig(options.env);
  // Every module with a schema migrates it (the gateway too: idempotency keys, rate limits); the others are no-ops.
  const targets = parseTargets(options.target, Object.keys(options.modules));
  const logger = createLogger({ level: config.logLevel });
  const log = componentLogger(logger, 'migrate');
  const infra = await startInfrastructure(config, { logger, needsDb: true });
  try {
    for (const name of targets) {
      const definition = options.modules[name];
      if (!definition) throw new Error(`this entry point cannot migrate ${name}`);
      const module = definition.createModule(config, {
        logger: componentLogger(logger, name),
        metrics: createMetricsRegistry(),
        databaseUrl: infra.databaseUrl,
        bus: infra.bus,
        objectStore: infra.objectStore,
        addressOf: () => '',
        buildInfo: () => buildInfoFor(name, options.version, ''),
        adminToken: resolveAdminToken(config.adminToken, config.dataDir).token,
        internalToken: undefined,
        parkedEvents: new ParkedEventsRegistry(),
        encryptionKey: resolveEncryptionKey(config, true),
        fail: (err) => {
          throw err;
        },
      });
      await module.migrate?.();
      await module.stop();
      log.info({ module: name }, 'migrated');
    }
    return 0;
  } catch (err) {
    log.error({ err }, 'migration failed');
    return 1;
  } finally {
    await infra.stop();
  }
}
