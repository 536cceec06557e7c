import { spawn } from 'node:child_process';
import path from 'node:path';

/** dist/cli.js, next to dist/jest/. */
const CLI = path.join(__dirname, '..', 'cli.js');

/**
 * Runs the infra CLI in a child process: its progress (stderr) shows in the jest output, its stdout (JSON) is
 * returned. A child rather than in-process, so that jest's own process loads none of the servers' clients.
 */
export function runCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`node ${CLI} ${args.join(' ')} exited with ${code} (see [infra] lines above)`));
    });
  });
}

/** Shared between global setup and teardown, which jest runs in the same process. */
export interface SetupRecord {
  lease: number;
  started: string[];
  /** Variables the setup put into process.env (removed again at teardown, for jest --watch). */
  setKeys: string[];
}

const KEY = Symbol.for('eligo.local-infra.jest');

export function remember(record: SetupRecord): void {
  (globalThis as Record<symbol, unknown>)[KEY] = record;
}

export function recall(): SetupRecord | undefined {
  const record = (globalThis as Record<symbol, unknown>)[KEY] as SetupRecord | undefined;
  delete (globalThis as Record<symbol, unknown>)[KEY];
  return record;
}
