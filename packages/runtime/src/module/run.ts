import type { Config } from '../config/config';
import { ConfigError, loadConfig } from '../config/config';
import { maskConfig } from '../config/mask';
import type { ModuleName } from '../config/schema';
import { createLogger } from '../logging/logger';
import type { ModuleDefinition } from './deps';
import { launch, type RunningProcess, type StartedInfo } from './launcher';
import { parseTargets } from './targets';

export interface RunOptions {
  env: Record<string, string | undefined>;
  /** "all" or a comma list. */
  target: string;
  /** The modules this entry point can host; "all" means these. */
  modules: Partial<Record<ModuleName, ModuleDefinition>>;
  /**
   * `modules` is every module of the deployment (the CLI's registry): a process hosting them all is
   * all-in-one and keeps gRPC on loopback. Unset (a service's own main): the process is part of a split.
   */
  completeRegistry?: boolean;
  version: string;
  printConfig?: boolean;
  /** Runs before the process exits after its modules stopped (e.g. flushing traces), at most 5 s. */
  beforeExit?: () => Promise<void>;
}

const BEFORE_EXIT_MS = 5_000;

async function bounded(work: (() => Promise<void>) | undefined): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, BEFORE_EXIT_MS)));
  await Promise.race([work().catch(() => undefined), limit]);
  clearTimeout(timer);
}

/**
 * A process entry shared by `eligo start` and every service's standalone main: parse config once, launch,
 * drain on SIGTERM/SIGINT (a second signal forces the exit), and exit non-zero when a module fails.
 */
export async function runProcess(options: RunOptions): Promise<void> {
  let config: Config;
  let targets: ModuleName[];
  try {
    config = loadConfig(options.env);
    targets = parseTargets(options.target, Object.keys(options.modules));
  } catch (err) {
    process.stderr.write(
      `eligo: ${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(2);
  }
  if (options.printConfig) {
    process.stdout.write(JSON.stringify({ targets, config: maskConfig(config) }, null, 2) + '\n');
    return;
  }
  const missing = targets.filter((t) => !options.modules[t]);
  if (missing.length > 0) {
    process.stderr.write(`eligo: this entry point cannot run ${missing.join(', ')}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: config.logLevel });
  let signals = 0;
  let shutdown: RunningProcess['shutdown'] | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(130);
    }
    // SIGTERM is how an orchestrator stops an instance: drain window first. Ctrl-C at a terminal stops at once.
    if (shutdown) void shutdown(signal, { drainWindow: signal === 'SIGTERM' });
    else process.exit(143);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    const running = await launch({
      config,
      targets,
      modules: options.modules as Record<ModuleName, ModuleDefinition>,
      ...(options.completeRegistry ? { deploymentModules: Object.keys(options.modules) } : {}),
      logger,
      version: options.version,
      gitCommit: options.env.ELIGO_GIT_COMMIT ?? '',
      onStarted: (info) => printBanner(info),
    });
    shutdown = running.shutdown;
    const code = await running.exited;
    await bounded(options.beforeExit);
    logger.flush();
    process.exit(code);
  } catch (err) {
    logger.flush();
    process.stderr.write(`eligo: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  }
}

/** Printed to stdout (not the JSON log) so that a person starting the service sees where it is. */
function printBanner(info: StartedInfo): void {
  const lines = [
    `Eligo is running: ${info.modules.join(', ')}`,
    `  REST v2:  ${info.publicBaseUrl}/rest/v2   (HTTP port ${info.httpPort})`,
    `  gRPC:     port ${info.grpcPort}`,
    `  health:   ${info.publicBaseUrl}/readyz`,
  ];
  if (info.adminTokenGenerated) {
    lines.push(
      `  operator token (ELIGO_ADMIN_TOKEN unset, generated and kept in the data dir): ${info.adminToken}`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
}
