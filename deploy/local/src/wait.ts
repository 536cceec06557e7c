import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from './errors';
import { tailFile } from './command';
import { isRunning } from './process';

export interface ReadyOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** The server's process: if it dies, waiting stops at once and its log is quoted. */
  process?: { pid?: number; pidStart?: string };
  /** Quoted (their last lines) when the server fails to come up. */
  logFiles?: string[];
}

/** Polls `answers` until it returns true. Bounded: a server that never answers fails, it never hangs. */
export async function waitUntilReady(
  what: string,
  answers: () => Promise<boolean>,
  opts: ReadyOptions,
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (opts.process && !isRunning(opts.process)) {
      throw new InfraError(`${what} exited during start-up${logHint(opts.logFiles)}`);
    }
    if (await answers().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new InfraError(
        `${what} did not answer within ${opts.timeoutMs / 1000}s${logHint(opts.logFiles)}`,
      );
    }
    await sleep(opts.intervalMs ?? 250);
  }
}

function logHint(files: string[] | undefined): string {
  return (files ?? []).map((file) => `; end of ${file}:\n${tailFile(file, 20)}`).join('');
}
