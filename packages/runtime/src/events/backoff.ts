export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
}

/**
 * Exponential backoff with full jitter for the n-th consecutive failure (1-based): retries of many
 * processes after a shared outage spread out instead of arriving together.
 */
export function backoffDelay(failures: number, options: BackoffOptions = {}): number {
  const initialMs = options.initialMs ?? 100;
  const maxMs = options.maxMs ?? 10_000;
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(failures - 1, 30));
  return Math.max(initialMs / 2, Math.random() * ceiling);
}

/** Sleeps, but returns early (without throwing) when the signal aborts: stopping must not wait out a backoff. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
