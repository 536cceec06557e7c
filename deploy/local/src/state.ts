import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from './errors';
import type { Log } from './log';
import { isRunning, processStartTime } from './process';
import type { ServiceName, ServiceRecord } from './types';

/** A process (a jest run) that uses the servers; they stay up while any lease holder lives. */
export interface Lease {
  pid: number;
  pidStart?: string;
}

/** What `up` started and who uses it, so that `status` and `down` (other processes, later) can find it. */
export interface State {
  services: Partial<Record<ServiceName, ServiceRecord>>;
  leases: Lease[];
}

export function runDir(cacheDir: string): string {
  return path.join(cacheDir, 'run');
}

function stateFile(cacheDir: string): string {
  return path.join(runDir(cacheDir), 'state.json');
}

export function leaseOf(pid: number): Lease {
  const pidStart = processStartTime(pid);
  return pidStart === undefined ? { pid } : { pid, pidStart };
}

export function leaseAlive(lease: Lease): boolean {
  return isRunning(lease);
}

export async function readState(cacheDir: string): Promise<State> {
  try {
    const parsed = JSON.parse(await fsp.readFile(stateFile(cacheDir), 'utf8')) as Partial<State>;
    return { services: parsed.services ?? {}, leases: parsed.leases ?? [] };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { services: {}, leases: [] };
    throw new InfraError(
      `cannot read ${stateFile(cacheDir)} (${(err as Error).message}): remove it and stop leftovers by hand`,
    );
  }
}

/** Written whole and renamed into place, so that a reader never sees half a file. */
export async function writeState(cacheDir: string, state: State): Promise<void> {
  const file = stateFile(cacheDir);
  if (Object.keys(state.services).length === 0 && state.leases.length === 0) {
    await fsp.rm(file, { force: true });
    return;
  }
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}`;
  await fsp.writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`);
  await fsp.rename(tmp, file);
}

const LOCK_WAIT_MS = 30 * 60_000; // another `up` may be building MinIO for the first time

/**
 * Serialises `up`/`down` across processes (parallel jest runs under turbo, a developer's shell), so that two of
 * them never start the same server twice or stop what the other just reused. The lock file holds its owner's
 * pid and start time; a lock whose owner is dead is taken over.
 */
export async function withStateLock<T>(cacheDir: string, log: Log, fn: () => Promise<T>): Promise<T> {
  const dir = runDir(cacheDir);
  await fsp.mkdir(dir, { recursive: true });
  const lock = path.join(dir, 'state.lock');
  const mine = JSON.stringify(leaseOf(process.pid));
  const deadline = Date.now() + LOCK_WAIT_MS;
  let announced = false;
  for (;;) {
    try {
      fs.writeFileSync(lock, mine, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const raw = readRaw(lock);
    const holder = parseLease(raw);
    // A holder that died, or a lock left empty by a crash between creating and writing it.
    if (raw !== undefined && (holder ? !leaseAlive(holder) : lockAgeMs(lock) > 5_000)) {
      takeOverStaleLock(lock, raw);
      continue;
    }
    if (Date.now() > deadline) {
      throw new InfraError(`${lock} is still held by pid ${holder?.pid} after ${LOCK_WAIT_MS / 60_000} min`);
    }
    if (!announced) {
      log(`waiting for another infra command (pid ${holder?.pid ?? '?'}) to finish`);
      announced = true;
    }
    await sleep(250);
  }
  const unlockOnExit = (): void => releaseLock(lock, mine);
  process.on('exit', unlockOnExit);
  try {
    return await fn();
  } finally {
    process.off('exit', unlockOnExit);
    releaseLock(lock, mine);
  }
}

function readRaw(lock: string): string | undefined {
  try {
    return fs.readFileSync(lock, 'utf8');
  } catch {
    return undefined; // vanished: try again
  }
}

function parseLease(raw: string | undefined): Lease | undefined {
  try {
    const lease = JSON.parse(raw ?? '') as Lease;
    return typeof lease.pid === 'number' ? lease : undefined;
  } catch {
    return undefined;
  }
}

function lockAgeMs(lock: string): number {
  try {
    return Date.now() - fs.statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Moves the stale lock aside atomically (only one contender wins the rename) and checks that what it moved is
 * the stale one; if a live owner's lock was moved by mistake, it is put back with link(), which never
 * overwrites.
 */
function takeOverStaleLock(lock: string, stale: string): void {
  const aside = `${lock}.stale-${process.pid}`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return; // someone else took it over
  }
  if (readRaw(aside) !== stale) {
    try {
      fs.linkSync(aside, lock);
    } catch {
      // a third process holds the lock now; the one we moved is theirs to lose, which is no worse than a crash
    }
  }
  fs.rmSync(aside, { force: true });
}

function releaseLock(lock: string, mine: string): void {
  try {
    if (fs.readFileSync(lock, 'utf8') === mine) fs.rmSync(lock, { force: true });
  } catch {
    // already gone
  }
}
