import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Log } from './log';

/**
 * Whether a container runtime is reachable, and the few runtime calls the harness makes by container id.
 * Detection is what keeps machines without a runtime fast: no socket, no Testcontainers at all.
 */

const RUNTIME_TIMEOUT_MS = 10_000; // a runtime that answers does so in well under a second

type Testcontainers = typeof import('testcontainers');

/** Loaded only when a runtime may be there: it pulls in dockerode and ssh2 (~0.4 s). */
export function testcontainers(): Promise<Testcontainers> {
  return import('testcontainers');
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000}s`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Whether a unix socket or TCP address accepts a connection, within a second. */
function connects(target: { path: string } | { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(target);
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Where Docker, Docker Desktop, Colima, Rancher and Podman put their socket, in Testcontainers' own order. */
function socketCandidates(env: NodeJS.ProcessEnv): string[] {
  const home = os.homedir();
  const runtimeDir = env.XDG_RUNTIME_DIR ?? `/run/user/${process.getuid?.() ?? 0}`;
  return [
    '/var/run/docker.sock',
    path.join(runtimeDir, 'docker.sock'),
    path.join(runtimeDir, 'podman', 'podman.sock'),
    path.join(home, '.docker', 'run', 'docker.sock'),
    path.join(home, '.docker', 'desktop', 'docker.sock'),
    path.join(home, '.colima', 'default', 'docker.sock'),
    path.join(home, '.rd', 'docker.sock'),
  ];
}

/** Cheap signs of a runtime: where one may answer, or why there is none (then no Testcontainers at all). */
async function runtimeHinted(env: NodeJS.ProcessEnv): Promise<{ hint: string } | { none: string }> {
  const dockerHost = env.DOCKER_HOST;
  if (dockerHost) {
    let reachable = true; // ssh:// and others: let Testcontainers judge, under a timeout
    if (dockerHost.startsWith('unix://'))
      reachable = await connects({ path: dockerHost.slice('unix://'.length) });
    if (dockerHost.startsWith('tcp://')) {
      const url = new URL(dockerHost.replace(/^tcp:/, 'http:'));
      reachable = await connects({ host: url.hostname, port: Number(url.port || 2375) });
    }
    return reachable
      ? { hint: dockerHost }
      : { none: `DOCKER_HOST=${dockerHost} does not accept connections` };
  }
  if (
    env.TESTCONTAINERS_HOST_OVERRIDE ||
    fs.existsSync(path.join(os.homedir(), '.testcontainers.properties'))
  ) {
    return { hint: 'Testcontainers configuration' };
  }
  for (const candidate of socketCandidates(env)) {
    if (fs.existsSync(candidate) && (await connects({ path: candidate }))) return { hint: candidate };
  }
  return { none: 'no Docker/Podman socket, no DOCKER_HOST' };
}

let runtimeCheck: Promise<boolean> | undefined;

/** Whether a container runtime answers; decided once per process, within ~10 s at worst, ~1 ms when there is none. */
export function containerRuntimeAvailable(env: NodeJS.ProcessEnv, log: Log): Promise<boolean> {
  runtimeCheck ??= (async () => {
    const found = await runtimeHinted(env);
    if ('none' in found) {
      log(`no container runtime (${found.none}): using local processes`);
      return false;
    }
    try {
      const tc = await testcontainers();
      await withTimeout(
        tc.getContainerRuntimeClient(),
        RUNTIME_TIMEOUT_MS,
        'connecting to the container runtime',
      );
      log(`container runtime found (${found.hint}): using Testcontainers`);
      return true;
    } catch (err) {
      log(
        `container runtime at ${found.hint} does not answer (${(err as Error).message}): using local processes`,
      );
      return false;
    }
  })();
  return runtimeCheck;
}

/** Stops and removes a container by id, from any process (`down` runs long after `up` has exited). */
export async function removeContainer(id: string): Promise<void> {
  const tc = await testcontainers();
  const client = await withTimeout(
    tc.getContainerRuntimeClient(),
    RUNTIME_TIMEOUT_MS,
    'connecting to the container runtime',
  );
  const container = client.container.getById(id);
  await client.container.stop(container, { timeout: 10 }).catch(() => undefined);
  await client.container.remove(container, { removeVolumes: true }).catch(() => undefined);
}

/** Whether the container still runs (for `status` and for reusing what `up` started). */
export async function containerRunning(id: string): Promise<boolean> {
  try {
    const tc = await testcontainers();
    const client = await withTimeout(
      tc.getContainerRuntimeClient(),
      RUNTIME_TIMEOUT_MS,
      'connecting to the container runtime',
    );
    const info = await client.container.inspect(client.container.getById(id));
    return info.State.Running;
  } catch {
    return false;
  }
}
