import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { startEligo, type EligoProcess } from '../support/eligo-process';
import { freePorts } from './ports';

/** The split deployment: one `eligo start --target <module>` process per module. */
export const MODULES = [
  'programs',
  'organizations',
  'verification',
  'documents',
  'reports',
  'notifier',
  'gateway',
] as const;
export type Module = (typeof MODULES)[number];

export interface ModuleProcess {
  module: Module;
  httpPort: number;
  grpcPort: number;
  /** The running process (replaced on each restart). */
  current: EligoProcess;
  /** How many times it was started. */
  starts: number;
}

export interface Deployment {
  procs: Record<Module, ModuleProcess>;
  gatewayUrl: string;
  /** Starts every module (in parallel) and waits until each answers /readyz 200. */
  start(readyTimeoutMs: number): Promise<void>;
  /** SIGKILLs one module's process and waits for it to be gone. */
  kill(module: Module): Promise<void>;
  /**
   * Starts the module again on its ports unless its process still runs (serialised per module, so that a
   * chaos restart and a restart after an unexpected exit never start two); resolves with the ms from spawn to
   * /readyz 200, or undefined when nothing had to be started.
   */
  restart(module: Module, readyTimeoutMs: number): Promise<number | undefined>;
  /** Whether the module's current process is still running. */
  alive(module: Module): boolean;
  /** SIGKILLs everything. */
  stopAll(): Promise<void>;
  /** The output files of every process started. */
  logDir: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls /readyz every 50 ms; resolves with the time since `since`, or fails with the output's tail. */
export async function waitReadyFrom(
  proc: EligoProcess,
  since: number,
  timeoutMs: number,
  what: string,
): Promise<number> {
  let exited: number | null | undefined;
  void proc.exited.then((c) => (exited = c));
  for (;;) {
    if (exited !== undefined)
      throw new Error(`${what} exited (${exited}) before ready:\n${proc.output().slice(-4000)}`);
    try {
      const res = await fetch(`${proc.httpUrl}/readyz`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return Date.now() - since;
    } catch {
      // not listening yet
    }
    if (Date.now() - since > timeoutMs)
      throw new Error(`${what} not ready after ${timeoutMs} ms:\n${proc.output().slice(-4000)}`);
    await sleep(50);
  }
}

export async function createDeployment(
  baseEnv: Record<string, string>,
  perModuleEnv: Partial<Record<Module, Record<string, string>>>,
  logDir: string,
  /** A process exited that we did not kill (a crash): the caller decides whether to restart it. */
  onUnexpectedExit: (module: Module, code: number | null, output: string) => void,
): Promise<Deployment> {
  const ports = {} as Record<Module, { http: number; grpc: number }>;
  const free = await freePorts(MODULES.length * 2);
  MODULES.forEach((m, i) => (ports[m] = { http: free[2 * i]!, grpc: free[2 * i + 1]! }));
  const procs = {} as Record<Module, ModuleProcess>;
  const logs: WriteStream[] = [];
  const killedByUs = new WeakSet<EligoProcess>();
  const chains = {} as Record<Module, Promise<unknown>>;
  const isAlive = (p: EligoProcess) => p.child.exitCode === null && p.child.signalCode === null;
  let stopping = false;

  const spawnModule = async (module: Module): Promise<EligoProcess> => {
    const others = Object.fromEntries(
      MODULES.filter((m) => m !== module && m !== 'gateway').map((m) => [
        `ELIGO_${m.toUpperCase()}_GRPC_ADDRESS`,
        `127.0.0.1:${ports[m].grpc}`,
      ]),
    );
    const starts = (procs[module]?.starts ?? 0) + 1;
    const spawnedAt = Date.now();
    const proc = await startEligo(['start', '--target', module], {
      ...baseEnv,
      ...others,
      ...(perModuleEnv[module] ?? {}),
      ELIGO_HTTP_PORT: String(ports[module].http),
      ELIGO_GRPC_PORT: String(ports[module].grpc),
    });
    const file = createWriteStream(path.join(logDir, `${module}-${starts}.log`));
    file.write(`# spawned ${new Date(spawnedAt).toISOString()} (pid ${proc.child.pid})\n`);
    logs.push(file);
    proc.child.stdout!.on('data', (d: Buffer) => file.write(d));
    proc.child.stderr!.on('data', (d: Buffer) => file.write(d));
    proc.child.once('exit', () => file.end());
    void proc.exited.then((code) => {
      if (!killedByUs.has(proc)) onUnexpectedExit(module, code, proc.output());
    });
    if (procs[module]) {
      procs[module].current = proc;
      procs[module].starts = starts;
    } else {
      procs[module] = {
        module,
        httpPort: ports[module].http,
        grpcPort: ports[module].grpc,
        current: proc,
        starts,
      };
    }
    return proc;
  };

  const kill = async (module: Module) => {
    const proc = procs[module].current;
    killedByUs.add(proc);
    if (isAlive(proc)) proc.child.kill('SIGKILL');
    await proc.exited;
  };

  const restart = (module: Module, readyTimeoutMs: number): Promise<number | undefined> => {
    const run = async () => {
      if (stopping || isAlive(procs[module].current)) return undefined;
      const t0 = Date.now();
      const proc = await spawnModule(module);
      return waitReadyFrom(proc, t0, readyTimeoutMs, `${module} (restart)`);
    };
    const next = (chains[module] ?? Promise.resolve()).then(run, run);
    chains[module] = next.catch(() => undefined);
    return next;
  };

  return {
    procs,
    gatewayUrl: `http://127.0.0.1:${ports.gateway.http}`,
    logDir,
    start: async (readyTimeoutMs) => {
      const t0 = Date.now();
      await Promise.all(MODULES.map((m) => spawnModule(m)));
      // A process that dies while starting is started again (onUnexpectedExit sees it too), a few times.
      await Promise.all(
        MODULES.map(async (m) => {
          for (let tries = 1; ; tries++) {
            const proc = procs[m].current;
            try {
              await waitReadyFrom(proc, t0, readyTimeoutMs, m);
              return;
            } catch (err) {
              // Not ready in time while running, or dead too often: give up.
              if (tries >= 4 || isAlive(proc)) throw err;
              await restart(m, readyTimeoutMs).catch(() => undefined);
            }
          }
        }),
      );
    },
    kill,
    restart,
    alive: (module) => isAlive(procs[module].current),
    stopAll: async () => {
      stopping = true;
      await Promise.all(MODULES.filter((m) => procs[m]).map((m) => kill(m)));
      await Promise.all(Object.values(chains));
      await Promise.all(MODULES.filter((m) => procs[m]).map((m) => kill(m)));
      await Promise.all(logs.map((f) => new Promise<void>((r) => (f.writableFinished ? r() : f.end(r)))));
    },
  };
}
