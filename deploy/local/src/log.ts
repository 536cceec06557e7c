import { performance } from 'node:perf_hooks';

/** Progress goes to stderr so that stdout stays clean for `export` lines and JSON. */
export type Log = (line: string) => void;

export const stderrLog: Log = (line) => {
  process.stderr.write(`[infra] ${line}\n`);
};

export const silentLog: Log = () => undefined;

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** Runs one step, saying what it does before and how long it took after (or that it failed). */
export async function timed<T>(log: Log, what: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  log(`${what} ...`);
  try {
    const result = await fn();
    log(`${what}: done in ${formatMs(performance.now() - start)}`);
    return result;
  } catch (err) {
    log(`${what}: failed after ${formatMs(performance.now() - start)}`);
    throw err;
  }
}

/** Prefixes every line with the service name, since services start in parallel and their lines interleave. */
export function prefixed(log: Log, prefix: string): Log {
  return (line) => log(`${prefix}: ${line}`);
}
