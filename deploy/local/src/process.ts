import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from './errors';

/**
 * Process groups that this process started and still answers for, with the temp dir to remove. If this
 * process exits (Ctrl-C during `up`, a crashed test) they are killed synchronously on 'exit', so that a half-
 * started server is never left behind. A server handed over to the state file is released from here.
 */
const owned = new Map<number, string | undefined>();
let exitHookInstalled = false;

function own(pid: number, dir: string | undefined): void {
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

export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/** The executable's path, or an error that names it and says how to install it. */
export function requireExecutable(name: string, installHint: string, env: NodeJS.ProcessEnv = process.env): string {
  const found = findExecutable(name, env);
  if (!found) throw new InfraError(`${name} not found: ${installHint}`);
  return found;
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

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
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

export interface RunSpec {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Output is appended here as it comes (long builds), besides being kept for the error message. */
  logFile?: string;
  uid?: number;
  gid?: number;
}

/**
 * Runs a command to completion (mvn, go install, StorageTool, initdb). It gets its own process group so that
 * a timeout kills its children too (go spawns compilers, mvn a JVM); an error quotes the end of its output.
 */
export function runCommand(command: string, args: string[], spec: RunSpec): Promise<string> {
  return new Promise((resolve, reject) => {
    const logStream = spec.logFile ? fs.createWriteStream(spec.logFile, { flags: 'a' }) : undefined;
    const child = spawn(command, args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(spec.uid !== undefined ? { uid: spec.uid } : {}),
      ...(spec.gid !== undefined ? { gid: spec.gid } : {}),
    });
    if (child.pid !== undefined) own(child.pid, undefined);
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > 200_000) output = output.slice(-100_000);
      logStream?.write(chunk);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    }, spec.timeoutMs);
    const finish = (err: Error | undefined): void => {
      clearTimeout(timer);
      if (child.pid !== undefined) release(child.pid);
      logStream?.end();
      if (err) reject(err);
      else resolve(output);
    };
    child.on('error', (err) => finish(new InfraError(`could not run ${command}: ${err.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return finish(undefined);
      const why = timedOut ? `timed out after ${spec.timeoutMs / 1000}s` : `exited with ${code ?? signal}`;
      finish(new InfraError(`${path.basename(command)} ${args.join(' ')} ${why}:\n${tail(output, 30)}`));
    });
  });
}

export function tail(text: string, lines: number): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function tailFile(file: string, lines = 30): string {
  try {
    return tail(fs.readFileSync(file, 'utf8'), lines);
  } catch {
    return '(no log)';
  }
}
