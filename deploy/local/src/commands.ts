import { harnessConfig } from './config';
import { InfraError } from './errors';
import { describe, ensureInfra, recordAnswers, stopRecord } from './infra';
import type { Log } from './log';
import { SERVICES } from './services';
import { leaseAlive, leaseOf, readState, withStateLock, writeState, type State } from './state';
import { SERVICE_NAMES, type ServiceName, type ServiceRecord } from './types';

/**
 * `up`, `down` and `status`: ensureInfra plus a state file, so that servers outlive the command and later
 * commands find them. Servers a developer brought up stay until they run `down`. Servers brought up for jest
 * runs (each holds a lease: its pid) are "ephemeral": the last run to release its lease stops them, so that
 * parallel runs (turbo) share one set and nothing is left after the last one.
 */

export interface CommandOptions {
  only: readonly ServiceName[];
  env: NodeJS.ProcessEnv;
  log: Log;
  kafkaVersion?: string;
  /** Set by the jest global setup/teardown: the pid of the jest process. */
  lease?: number;
}

export interface UpResult {
  env: Record<string, string>;
  started: ServiceName[];
  reused: ServiceName[];
  given: ServiceName[];
}

export async function up(opts: CommandOptions): Promise<UpResult> {
  const config = harnessConfig(opts.env, opts.kafkaVersion ? { kafkaVersion: opts.kafkaVersion } : {});
  return withStateLock(config.cacheDir, opts.log, async () => {
    const state = await readState(config.cacheDir);
    state.leases = state.leases.filter(leaseAlive);
    const result: UpResult = { env: {}, started: [], reused: [], given: [] };
    const missing: ServiceName[] = [];
    for (const name of opts.only) {
      const given = SERVICES[name].given(opts.env);
      if (given) {
        opts.log(`${name}: given by the environment (${Object.keys(given).join(', ')})`);
        Object.assign(result.env, given);
        result.given.push(name);
        continue;
      }
      const rec = state.services[name];
      if (rec && (await reusable(rec, state, config, opts.log))) {
        opts.log(`${name}: already up (${describe(rec)}): reusing`);
        if (opts.lease === undefined) rec.ephemeral = false; // a developer's `up` keeps it until their `down`
        Object.assign(result.env, rec.env);
        result.reused.push(name);
        continue;
      }
      if (rec) delete state.services[name];
      missing.push(name);
    }
    if (missing.length > 0) {
      const handle = await ensureInfra({
        only: missing,
        kafkaVersion: config.kafkaVersion,
        env: opts.env,
        useGiven: false,
        keepRunning: true,
        log: opts.log,
      });
      for (const rec of handle.started) {
        rec.ephemeral = opts.lease !== undefined;
        state.services[rec.service] = rec;
        Object.assign(result.env, rec.env);
        result.started.push(rec.service);
      }
    }
    if (opts.lease !== undefined && !state.leases.some((l) => l.pid === opts.lease)) {
      state.leases.push(leaseOf(opts.lease));
    }
    await writeState(config.cacheDir, state);
    return result;
  });
}

/** Whether a recorded server can serve this `up`; if not, it is stopped (or the mismatch reported). */
async function reusable(
  rec: ServiceRecord,
  state: State,
  config: ReturnType<typeof harnessConfig>,
  log: Log,
): Promise<boolean> {
  if (rec.service === 'kafka' && config.kafkaVersionExplicit && rec.version !== config.kafkaVersion) {
    if (!rec.ephemeral || state.leases.length > 0) {
      throw new InfraError(
        `Kafka ${rec.version} is up (${describe(rec)}), not the requested ${config.kafkaVersion}: ` +
          'run `npm run infra -- down --only kafka` first',
      );
    }
    log(`kafka: ${rec.version} is up but ${config.kafkaVersion} is requested: replacing it`);
    await stopRecord(rec, log);
    return false;
  }
  if (await recordAnswers(rec)) return true;
  log(`${rec.service}: recorded (${describe(rec)}) but not answering: starting a new one`);
  await stopRecord(rec, log);
  return false;
}

export interface DownOptions {
  only?: readonly ServiceName[];
  env: NodeJS.ProcessEnv;
  log: Log;
  lease?: number;
}

/** Stops recorded servers. With a lease: releases it, and stops the ephemeral servers if it was the last. */
export async function down(opts: DownOptions): Promise<ServiceName[]> {
  const { cacheDir } = harnessConfig(opts.env);
  return withStateLock(cacheDir, opts.log, async () => {
    const state = await readState(cacheDir);
    let targets: ServiceRecord[];
    if (opts.lease !== undefined) {
      state.leases = state.leases.filter((l) => l.pid !== opts.lease && leaseAlive(l));
      if (state.leases.length > 0) {
        opts.log(`other test runs still use the servers (pids ${state.leases.map((l) => l.pid).join(', ')})`);
        await writeState(cacheDir, state);
        return [];
      }
      targets = Object.values(state.services).filter((rec) => rec.ephemeral);
    } else {
      const only = opts.only ?? SERVICE_NAMES;
      targets = Object.values(state.services).filter((rec) => only.includes(rec.service));
    }
    if (targets.length === 0) opts.log('nothing to stop');
    await Promise.all(targets.map((rec) => stopRecord(rec, opts.log)));
    for (const rec of targets) delete state.services[rec.service];
    await writeState(cacheDir, state);
    return targets.map((rec) => rec.service);
  });
}

export interface StatusEntry {
  service: ServiceName;
  via: 'process' | 'container' | 'environment';
  answers: boolean;
  env: Record<string, string>;
  pid?: number;
  containerId?: string;
  version?: string;
  ephemeral?: boolean;
  log?: string;
  startedAt?: string;
}

/** What runs (recorded by `up`, or given by the environment) and whether it answers. */
export async function infraStatus(
  opts: { env?: NodeJS.ProcessEnv; only?: readonly ServiceName[] } = {},
): Promise<StatusEntry[]> {
  const env = opts.env ?? process.env;
  const { cacheDir } = harnessConfig(env);
  const state = await readState(cacheDir);
  const only = opts.only ?? SERVICE_NAMES;
  const entries = only.map(async (name): Promise<StatusEntry | undefined> => {
    const given = SERVICES[name].given(env);
    if (given)
      return { service: name, via: 'environment', answers: await SERVICES[name].answers(given), env: given };
    const rec = state.services[name];
    if (!rec) return undefined;
    return {
      service: name,
      via: rec.via,
      answers: await recordAnswers(rec),
      env: rec.env,
      ...(rec.pid !== undefined ? { pid: rec.pid } : {}),
      ...(rec.containerId ? { containerId: rec.containerId } : {}),
      ...(rec.version ? { version: rec.version } : {}),
      ...(rec.log ? { log: rec.log } : {}),
      ephemeral: rec.ephemeral ?? false,
      startedAt: rec.startedAt,
    };
  });
  return (await Promise.all(entries)).filter((e): e is StatusEntry => e !== undefined);
}
