import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where form-B uploads are spooled before they go to the documents service: `<dataDir>/upload-spool/<pid>`.
 * The files are identity documents, so a process killed mid-upload must not leave them behind for ever: at
 * start, the spools of processes that are gone are removed. Another live gateway's spool (replicas sharing a
 * data dir) is left alone.
 */
export function prepareUploadSpool(
  dataDir: string,
  isAlive: (pid: number) => boolean = processIsAlive,
): string {
  const root = join(dataDir, 'upload-spool');
  mkdirSync(root, { recursive: true, mode: 0o700 });
  for (const entry of readdirSync(root)) {
    const pid = /^\d+$/.test(entry) ? Number(entry) : NaN;
    if (pid === process.pid || (Number.isSafeInteger(pid) && isAlive(pid))) continue;
    rmSync(join(root, entry), { recursive: true, force: true });
  }
  const own = join(root, String(process.pid));
  mkdirSync(own, { recursive: true, mode: 0o700 });
  return own;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
