import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { harnessConfig } from './config';
import { containerRunning, containerRuntimeAvailable, removeContainer } from './container-runtime';
import { formatMs, prefixed, stderrLog, type Log } from './log';
import { isRunning, release, stopProcess } from './process';
import { SERVICES, type ServiceDef } from './services';
import { SERVICE_NAMES, type ServiceName, type ServiceRecord, type StartContext } from './types';

export interface InfraOptions {
  /** Which servers (default: all). */
  only?: readonly ServiceName[];
  /** Default: env ELIGO_KAFKA_VERSION, else 3.9.2. */
  kafkaVersion?: string;
  /** The environment: explicit servers (ELIGO_TEST_*), harness settings, and PATH etc. for the tools. */
  env?: NodeJS.ProcessEnv;
  /** Take servers given by ELIGO_TEST_* variables as they are (default true); false starts every one. */
  useGiven?: boolean;
  /** Try the Testcontainers step when a runtime is reachable (default true; env ELIGO_INFRA_CONTAINERS=off). */
  containers?: boolean;
  /**
   * Leave the servers running when this process exits (the CLI's `up`). By default they are killed with it,
   * so that a test that forgets stop() leaves nothing behind.
   */
  keepRunning?: boolean;
  /** Progress lines; default stderr. */
  log?: Log;
}

export interface InfraHandle {
  /** The environment contract (ELIGO_TEST_*) for the requested servers, given and started alike. */
  env: Record<string, string>;
  /** What this call started (and stop() stops). */
  started: ServiceRecord[];
  /** What the environment gave (never stopped). */
  given: ServiceName[];
  /** Stops only what this call started, and removes its temporary data. */
  stop(): Promise<void>;
}

/**
 * Provides real servers, each in this order: given by the environment; a container when a container runtime
 * is reachable; a local process installed and started by the harness. The servers start in parallel. If one
 * fails, those that did start are stopped again and the error says what is missing.
 */
export async function ensureInfra(options: InfraOptions = {}): Promise<InfraHandle> {
  const env = options.env ?? process.env;
  const log = options.log ?? stderrLog;
  const config = harnessConfig(env, options.kafkaVersion ? { kafkaVersion: options.kafkaVersion } : {});
  const wanted = SERVICE_NAMES.filter((s) => (options.only ?? SERVICE_NAMES).includes(s));

  const out: Record<string, string> = {};
  const given: ServiceName[] = [];
  const toStart: ServiceDef[] = [];
  for (const name of wanted) {
    const def = SERVICES[name];
    const fromEnv = options.useGiven === false ? undefined : def.given(env);
    if (fromEnv) {
      log(`${name}: given by the environment (${Object.keys(fromEnv).join(', ')})`);
      Object.assign(out, fromEnv);
      given.push(name);
    } else {
      toStart.push(def);
    }
  }

  const useContainers =
    toStart.length > 0 &&
    config.containers &&
    options.containers !== false &&
    (await containerRuntimeAvailable(env, log));
  const base = {
    cacheDir: config.cacheDir,
    kafkaVersion: config.kafkaVersion,
    env,
    keepRunning: options.keepRunning ?? false,
  };
  const results = await Promise.allSettled(
    toStart.map((def) => startOne(def, { ...base, log: prefixed(log, def.name) }, useContainers)),
  );
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failures.length > 0) {
    await Promise.all(started.map((rec) => stopRecord(rec, log)));
    const [first, ...more] = failures;
    if (more.length > 0 && first) first.message += more.map((e) => `\nalso: ${e.message}`).join('');
    throw first;
  }
  if (options.keepRunning) for (const rec of started) if (rec.pid !== undefined) release(rec.pid);
  for (const rec of started) Object.assign(out, rec.env);

  return {
    env: out,
    started,
    given,
    stop: async () => {
      await Promise.all(started.map((rec) => stopRecord(rec, log)));
    },
  };
}

async function startOne(def: ServiceDef, ctx: StartContext, useContainers: boolean): Promise<ServiceRecord> {
  const t0 = performance.now();
  let rec: ServiceRecord | undefined;
  if (useContainers) {
    try {
      rec = await def.startContainer(ctx);
    } catch (err) {
      ctx.log(`container did not start (${(err as Error).message}); falling back to a local process`);
    }
  }
  rec ??= await def.startLocal(ctx);
  ctx.log(`ready (${describe(rec)}) in ${formatMs(performance.now() - t0)}`);
  return rec;
}

export function describe(rec: ServiceRecord): string {
  const where = Object.values(rec.env)[0] ?? '';
  const how = rec.via === 'process' ? `pid ${rec.pid}` : `container ${rec.containerId?.slice(0, 12)}`;
  return `${where.replace(/\/\/[^@/]*@/, '//')}, ${how}${rec.version ? `, Kafka ${rec.version}` : ''}`;
}

/** Stops one recorded server (from any process) and removes its temporary data. */
export async function stopRecord(rec: ServiceRecord, log: Log = stderrLog): Promise<void> {
  const t0 = performance.now();
  if (rec.via === 'container' && rec.containerId) {
    await removeContainer(rec.containerId).catch((err: Error) =>
      log(`${rec.service}: could not remove container ${rec.containerId}: ${err.message}`),
    );
  } else {
    await stopProcess(rec);
  }
  if (rec.dir && isOurTempDir(rec.dir)) await fs.rm(rec.dir, { recursive: true, force: true });
  log(`${rec.service}: stopped (${describe(rec)}) in ${formatMs(performance.now() - t0)}`);
}

/** Only ever delete what the harness created: an eligo-* directory right under the temp dir. */
function isOurTempDir(dir: string): boolean {
  return path.dirname(dir) === os.tmpdir() && path.basename(dir).startsWith('eligo-');
}

/** Whether a recorded server still runs and answers. */
export async function recordAnswers(rec: ServiceRecord): Promise<boolean> {
  const running = rec.via === 'container' ? await containerRunning(rec.containerId ?? '') : isRunning(rec);
  return running && SERVICES[rec.service].answers(rec.env);
}
