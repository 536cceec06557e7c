import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from './errors';

/**
 * Process groups that this process started and still answers for, with the temp dir to remove. If this
 * process exits (Ctrl-C during `up`, a crashed test) they are killed synchronously on 'exit', so that a half-
 * started server is never left behind. A server handed over to the state file is released from here.
 */
const owned = new Map<number, string | undefined>();
let exitHookInstalled = false;

export function own(pid: number, dir: string | undefined): void {
  owned.set(pid, dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [pgid, ownedDir] of owned) {
      signalGroup(pgid, 'SIGKILL');
      if (ownedDir) fs.rmSync(ownedDir, { recursive: true, force: true });
    }
  });
}

/** Stops answering for a process group: it now outlives this process (recorded in the state file). */
export function release(pid: number): void {
  owned.delete(pid);
}

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** stdout and stderr are appended here (the process outlives us, so no pipes). */
  logFile: string;
  /** Removed, with the process group, if this process exits while it still owns the server. */
  dir?: string;
  uid?: number;
  gid?: number;
}

export interface Spawned {
  pid: number;
  pidStart: string | undefined;
}

/** Starts a server in its own process group (detached), so that it outlives us and stops as one group. */
export function spawnDetached(spec: SpawnSpec): Spawned {
  const out = fs.openSync(spec.logFile, 'a');
  try {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', out, out],
      ...(spec.uid !== undefined ? { uid: spec.uid } : {}),
      ...(spec.gid !== undefined ? { gid: spec.gid } : {}),
    });
    // A spawn failure (ENOENT, EACCES) is reported asynchronously; the pid is then undefined.
    child.on('error', () => undefined);
    if (child.pid === undefined) throw new InfraError(`could not start ${spec.command}`);
    child.unref();
    own(child.pid, spec.dir);
    return { pid: child.pid, pidStart: processStartTime(child.pid) };
  } finally {
    fs.closeSync(out);
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks): with the pid it identifies one process. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; the fields after it are plain.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function procState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether any process of the group still runs. Zombies do not count: a server whose parent exited is reaped by
 * init, and some inits (containers, VMs) reap only every few seconds, which would hold up every `down`.
 */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return true; // no /proc (macOS): the signal test above is all we have
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[2] === String(pgid) && fields[0] !== 'Z') return true; // fields: state, ppid, pgrp, ...
    } catch {
      // exited while we looked
    }
  }
  return false;
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** Whether the recorded process is still the one we started (not a recycled pid) and not a zombie. */
export function isRunning(rec: { pid?: number; pidStart?: string }): boolean {
  if (rec.pid === undefined || !pidExists(rec.pid)) return false;
  if (procState(rec.pid) === 'Z') return false;
  const start = processStartTime(rec.pid);
  return rec.pidStart === undefined || start === undefined || start === rec.pidStart;
}

/**
 * Stops a server started by spawnDetached: its stop signal to the leader, then SIGKILL to the whole group
 * after the grace period. The group is only signalled while we can tell it is ours: the leader is the process
 * we recorded, or the leader's pid is unused (Linux keeps a pid allocated while it names a live process group,
 * so the group's remaining members are then ours). A leader pid now held by another process means our group
 * is long gone, and nothing is signalled.
 */
export async function stopProcess(
  rec: { pid?: number; pidStart?: string; stopSignal?: NodeJS.Signals },
  graceMs = 10_000,
): Promise<void> {
  const pid = rec.pid;
  if (pid === undefined) return;
  release(pid);
  if (isRunning(rec)) {
    try {
      process.kill(pid, rec.stopSignal ?? 'SIGTERM');
    } catch {
      // exited meanwhile
    }
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && groupExists(pid)) await sleep(100);
  } else if (pidExists(pid) && procState(pid) !== 'Z') {
    return; // the pid was recycled: our group is gone
  }
  if (groupExists(pid)) {
    signalGroup(pid, 'SIGKILL');
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && groupExists(pid)) await sleep(50);
  }
}
