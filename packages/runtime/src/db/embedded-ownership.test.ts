import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveOwner, recordOwner, releaseOwner, runningServer } from './embedded-ownership';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'eligo-owner-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const owner = (pid: number): void => writeFileSync(join(dataDir, 'postgres.owner'), String(pid));

describe('liveOwner', () => {
  it('names a live process that recorded itself, and nobody once it released the data dir', () => {
    recordOwner(dataDir);
    expect(liveOwner(dataDir)).toBe(process.pid);
    releaseOwner(dataDir);
    expect(liveOwner(dataDir)).toBeUndefined();
  });

  it('names another live process', () => {
    owner(process.ppid);
    expect(liveOwner(dataDir)).toBe(process.ppid);
  });

  it('ignores a dead owner, and our own pid left by an earlier process (a restarted container)', () => {
    owner(2 ** 22 + 1); // above Linux's pid_max
    expect(liveOwner(dataDir)).toBeUndefined();
    owner(process.pid);
    expect(liveOwner(dataDir)).toBeUndefined();
  });
});

describe('runningServer', () => {
  const postmasterPid = (lines: string[]): void => {
    mkdirSync(join(dataDir, 'postgres'), { recursive: true });
    writeFileSync(join(dataDir, 'postgres', 'postmaster.pid'), lines.join('\n') + '\n');
  };

  it('is undefined without postmaster.pid, or when its pid is no postgres (stale file, reused pid)', () => {
    expect(runningServer(join(dataDir, 'postgres'))).toBeUndefined();
    postmasterPid([String(process.pid), dataDir, '1700000000', '5432', dataDir, '127.0.0.1', '0 0', 'ready']);
    expect(runningServer(join(dataDir, 'postgres'))).toBeUndefined();
  });
});
