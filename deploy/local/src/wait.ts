import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from './errors';
import { isRunning, tailFile } from './process';

export interface ReadyOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** The server's process: if it dies, waiting stops at once and its log is quoted. */
  process?: { pid?: number; pidStart?: string };
  logFile?: string;
}

/** Polls `answers` until it returns true. Bounded: a server that never answers fails, it never hangs. */
export async function waitUntilReady(what: string, answers: () => Promise<boolean>, opts: ReadyOptions): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (opts.process && !isRunning(opts.process)) {
      throw new InfraError(`${what} exited during start-up${logHint(opts.logFile)}`);
    }
    if (await answers().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new InfraError(`${what} did not answer within ${opts.timeoutMs / 1000}s${logHint(opts.logFile)}`);
    }
    await sleep(opts.intervalMs ?? 250);
  }
}

function logHint(logFile: string | undefined): string {
  return logFile ? `; end of ${logFile}:\n${tailFile(logFile)}` : '';
}
