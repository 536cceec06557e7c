import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Who runs the embedded Postgres of a data dir. The eligo process that starts the server records its pid in
 * `<dataDir>/postgres.owner`; the server is that process's child. A server is owned while its recorded owner
 * is alive and still its parent; otherwise it is an orphan (its owner was killed) that the next process may
 * stop. Two processes starting at the same instant on one data dir are not arbitrated here: Postgres's own
 * lock (postmaster.pid) lets one server start and the other process fails with that message.
 */
export interface RunningServer {
  pid: number;
  port: number;
  /** The postmaster's own status line: "starting", "ready", "stopping". */
  status: string;
}

/** Data dirs whose server this process started (its pid in the owner file is then not a leftover). */
const ownedHere = new Set<string>();

const ownerFile = (dataDir: string): string => join(dataDir, 'postgres.owner');

export function recordOwner(dataDir: string): void {
  writeFileSync(ownerFile(dataDir), String(process.pid), { mode: 0o600 });
  ownedHere.add(dataDir);
}

export function releaseOwner(dataDir: string): void {
  ownedHere.delete(dataDir);
  if (readOwner(dataDir) === process.pid) rmSync(ownerFile(dataDir), { force: true });
}

/**
 * The server of the data dir's live owner, once it accepts connections (the owner may be starting it);
 * undefined when this process must run its own: no owner, a dead one, or a server that is not its child.
 */
export async function ownersServer(
  dataDir: string,
  pgDir: string,
): Promise<{ owner: number; server: RunningServer } | undefined> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const owner = liveOwner(dataDir);
    if (owner === undefined) return undefined;
    const server = runningServer(pgDir);
    if (server && !ownedBy(server, owner)) return undefined;
    if (server?.status === 'ready') return { owner, server };
    if (Date.now() > deadline)
      throw new Error(
        `the embedded postgres in ${pgDir} belongs to eligo process ${owner}, which has not made it ready ` +
          'within 60 s: stop that process or use another ELIGO_DATA_DIR',
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The live eligo process that owns the data dir's server, if any (this process included). */
export function liveOwner(dataDir: string): number | undefined {
  const pid = readOwner(dataDir);
  if (pid === undefined) return undefined;
  // Our own pid in the file is a leftover of an earlier process that had the same pid (a restarted container).
  if (pid === process.pid) return ownedHere.has(dataDir) ? pid : undefined;
  return alive(pid) ? pid : undefined;
}

/** The server that postmaster.pid names, when that pid is a live postgres (not a stale file, not a reused pid). */
export function runningServer(pgDir: string): RunningServer | undefined {
  const file = join(pgDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  // Lines: pid, data dir, start time, port, socket dir, listen address, shared memory key, status.
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || processInfo(pid)?.command !== 'postgres') return undefined;
  return { pid, port: Number(lines[3]), status: (lines[7] ?? '').trim() };
}

/** True while the server's parent is its recorded owner: not an orphan. */
function ownedBy(server: RunningServer, owner: number): boolean {
  return processInfo(server.pid)?.ppid === owner;
}

export function isRunning(server: RunningServer): boolean {
  return processInfo(server.pid)?.command === 'postgres';
}

function readOwner(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(ownerFile(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // it exists, under another user
  }
}

/** Parent pid and command name of a process: /proc on Linux, ps elsewhere; undefined when there is none. */
function processInfo(pid: number): { ppid: number; command: string } | undefined {
  if (existsSync('/proc/self/stat')) {
    try {
      // "pid (command) state ppid ...": the command may hold spaces and parentheses, so split at the last ")".
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const end = stat.lastIndexOf(')');
      const command = stat.slice(stat.indexOf('(') + 1, end);
      return { command, ppid: Number(stat.slice(end + 2).split(' ')[1]) };
    } catch {
      return undefined;
    }
  }
  const ps = spawnSync('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], { encoding: 'utf8' });
  const match = /^\s*(\d+)\s+(.+?)\s*$/.exec(ps.stdout ?? '');
  return match ? { ppid: Number(match[1]), command: basename(match[2]!) } : undefined;
}
