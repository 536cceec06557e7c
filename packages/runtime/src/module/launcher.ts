import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { ModuleName } from '../config/schema';
import { createHttpServer, type HttpServer } from '../http/server';
import { componentLogger } from '../logging/logger';
import { GrpcHost } from '../grpc/host';
import { createMetricsRegistry } from '../metrics/registry';
import { resolveAdminToken } from './admin-token';
import { resolveEncryptionKey } from './encryption-key';
import { buildInfoFor } from './build-info';
import type { ModuleDefinition, ModuleDeps } from './deps';
import { checkGrpcExposure, grpcBindHost } from './grpc-exposure';
import { ParkedEventsRegistry } from './parked-events-service';
import { startInfrastructure, type Infrastructure } from './infrastructure';
import type { Module } from './module';
import { startOrder } from './targets';

export interface LaunchOptions {
  config: Config;
  targets: ModuleName[];
  modules: Record<ModuleName, ModuleDefinition>;
  /**
   * Every module of the deployment, when the entry point knows them (the CLI's registry): a process hosting
   * them all is all-in-one and keeps gRPC on loopback. Unset: this process is one part of a split deployment.
   */
  deploymentModules?: readonly ModuleName[];
  logger: Logger;
  version: string;
  gitCommit: string;
  /** Called once with the bound addresses after everything started (the CLI prints them). */
  onStarted?(info: StartedInfo): void;
}

export interface StartedInfo {
  httpPort: number;
  grpcPort: number;
  publicBaseUrl: string;
  adminToken: string;
  adminTokenGenerated: boolean;
  modules: string[];
}

export interface RunningProcess {
  info: StartedInfo;
  /**
   * Graceful stop: unready, drain HTTP and gRPC, stop modules in reverse order, close infrastructure. With
   * drainWindow (a SIGTERM from an orchestrator) it first keeps serving, unready, for ELIGO_SHUTDOWN_DELAY_MS,
   * so that load balancers see the 503 before the listener closes; other stops (a test, Ctrl-C) close at once.
   */
  shutdown(reason: string, options?: { drainWindow?: boolean }): Promise<void>;
  /** Resolves with the exit code once the process has stopped (after shutdown or a module failure). */
  exited: Promise<number>;
}

/**
 * Starts the modules named by --target in dependency order on one gRPC server and one HTTP server
 * (docs/architecture.md, "Modules and targets"). The gateway reaches every module through gRPC clients, also
 * in this process.
 */
export async function launch(options: LaunchOptions): Promise<RunningProcess> {
  const { config, logger } = options;
  const log = componentLogger(logger, 'launcher');
  checkAddresses(options);
  const metrics = createMetricsRegistry();
  const admin = resolveAdminToken(config.adminToken, config.dataDir);
  // Every module keeps data now, the gateway included (Idempotency-Key answers, encrypted).
  const encryptionKey = resolveEncryptionKey(config, true);
  let draining = false;
  let infra: Infrastructure | undefined;
  let http: HttpServer | undefined;
  const started: Module[] = [];
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((r) => (resolveExit = r));
  const grpcHost = grpcBindHost(config, options.targets, options.deploymentModules);
  checkGrpcExposure(config, grpcHost, log);
  const grpc = new GrpcHost({
    logger: componentLogger(logger, 'grpc'),
    metrics,
    internalTokens: config.grpc.internalTokens,
    inProcess: config.grpc.inProcess,
  });
  let grpcPort = config.grpc.port;

  const shutdown = async (reason: string, code = 0, delayMs = 0): Promise<void> => {
    if (draining) return;
    draining = true;
    log.info({ reason }, 'shutting down: unready, draining');
    grpc.setAllServing(false);
    http?.drain();
    if (http && delayMs > 0) {
      log.info({ delayMs }, 'drain window: serving while unready before closing the listeners');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    // Every step is timed and bounded: one that hangs is logged by name and the shutdown goes on, so that a
    // SIGTERM always ends the process (Kubernetes would SIGKILL it otherwise, mid-way).
    const grace = config.shutdownGraceMs;
    const step = (what: string, fn: () => Promise<void>, limitMs: number) =>
      boundedStep(log, what, fn, limitMs);
    if (http) await step('http drain', () => http!.close(grace), grace + 1000);
    await step('grpc drain', () => grpc.shutdown(grace), grace + 1000);
    for (const m of [...started].reverse()) await step(`module ${m.name} stop`, () => m.stop(), grace);
    if (infra) await step('infrastructure stop', () => infra!.stop(), grace + 15_000);
    log.info({ code }, 'stopped');
    resolveExit(code);
  };
  const fail = (err: unknown): void => {
    log.fatal({ err }, 'module failed; stopping the process');
    void shutdown('module failure', 1);
  };

  try {
    infra = await startInfrastructure(config, { logger, needsDb: true, fail });
    const parkedEvents = new ParkedEventsRegistry();
    grpc.addService(parkedEvents.binding(componentLogger(logger, 'parked-events')));
    const modules = options.targets.map((name) => {
      const deps: ModuleDeps = {
        logger: componentLogger(logger, name),
        metrics,
        databaseUrl: infra!.databaseUrl,
        bus: infra!.bus,
        objectStore: infra!.objectStore,
        addressOf: (m) =>
          options.targets.includes(m) ? `127.0.0.1:${grpcPort}` : (config.grpc.addresses[m] as string),
        buildInfo: () => buildInfoFor(name, options.version, options.gitCommit),
        adminToken: admin.token,
        internalToken: config.grpc.internalTokens[0],
        parkedEvents,
        encryptionKey,
        fail,
      };
      const module = definitionOf(options, name).createModule(config, deps);
      for (const svc of module.grpcServices) grpc.addService(svc);
      return module;
    });
    grpcPort = await grpc.listen(grpcHost, config.grpc.port);

    const byName = new Map(modules.map((m) => [m.name, m]));
    for (const name of startOrder(modules)) {
      const m = byName.get(name)!;
      const t0 = Date.now();
      await m.start();
      started.push(m);
      log.info({ module: name, ms: Date.now() - t0 }, 'module started');
    }
    grpc.setAllServing(true);

    http = createHttpServer({
      logger: componentLogger(logger, 'http'),
      ready: async () => !draining && (await Promise.all(started.map((m) => m.ready()))).every(Boolean),
      metrics: async () => ({ contentType: metrics.contentType, body: await metrics.metrics() }),
      registry: metrics,
      mount: (app) => {
        infra!.mountHttp(app);
        for (const m of started) m.mountHttp?.(app);
      },
    });
    const httpPort = await http.listen(config.http.host, config.http.port);
    const info: StartedInfo = {
      httpPort,
      grpcPort,
      publicBaseUrl: config.http.publicBaseUrl,
      adminToken: admin.token,
      adminTokenGenerated: admin.generated,
      modules: started.map((m) => m.name),
    };
    log.info({ httpPort, grpcPort, modules: info.modules }, 'eligo started');
    options.onStarted?.(info);
    return {
      info,
      shutdown: (reason, opts) => shutdown(reason, 0, opts?.drainWindow ? config.shutdownDelayMs : 0),
      exited,
    };
  } catch (err) {
    log.fatal({ err }, 'start failed');
    await shutdown('start failure', 1);
    throw err;
  }
}

/** The definition of a hosted module; the entry point's registry must have it. */
function definitionOf(options: LaunchOptions, name: ModuleName): ModuleDefinition {
  const definition = options.modules[name];
  if (!definition) throw new Error(`this entry point has no module named ${name}`);
  return definition;
}

/** In a split deployment every dependency outside this process needs an address: fail at boot, not on first call. */
function checkAddresses(options: LaunchOptions): void {
  const missing = new Map<string, string[]>();
  for (const name of options.targets) {
    for (const dep of definitionOf(options, name).dependsOn) {
      if (!options.targets.includes(dep) && !options.config.grpc.addresses[dep]) {
        const variable = `ELIGO_${dep.toUpperCase()}_GRPC_ADDRESS`;
        missing.set(variable, [...(missing.get(variable) ?? []), name]);
      }
    }
  }
  if (missing.size > 0) {
    const list = [...missing].map(([variable, users]) => `${variable} (needed by ${users.join(', ')})`);
    throw new Error(`missing gRPC addresses of modules outside this process: ${list.join('; ')}`);
  }
}

/** Runs one shutdown step, logging its duration, or its failure or overrun, without ever throwing. */
async function boundedStep(
  log: Logger,
  what: string,
  fn: () => Promise<void>,
  limitMs: number,
): Promise<void> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<'overrun'>((resolve) => {
    timer = setTimeout(() => resolve('overrun'), limitMs);
  });
  try {
    const outcome = await Promise.race([fn().then(() => 'done' as const), overrun]);
    if (outcome === 'overrun')
      log.error({ step: what, limitMs }, 'shutdown step did not finish in time; going on');
    else log.info({ step: what, ms: Date.now() - t0 }, 'shutdown step done');
  } catch (err) {
    log.error({ err, step: what }, 'shutdown step failed');
  } finally {
    clearTimeout(timer);
  }
}
