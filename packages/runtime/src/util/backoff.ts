/**
 * The one backoff of the runtime: event consumers, the outbox relay, LISTEN reconnects and periodic jobs wait
 * with it after a failure, and gRPC clients before a retry (grpc/retry.ts).
 */
export interface BackoffOptions {
  /** The ceiling after the first failure (default 100 ms). */
  initialMs?: number;
  /** The ceiling never grows past this (default 10 s). */
  maxMs?: number;
  /** The ceiling's growth per further failure (default 2). */
  multiplier?: number;
  /**
   * Where under the ceiling the delay falls. `full` (the default): anywhere, though not below initialMs / 2, so
   * that many processes retrying after a shared outage spread out. `upper-half`: from half the ceiling to all of
   * it, in whole ms: still spread, with a known lower bound (a gRPC retry must fit its call's deadline).
   */
  jitter?: 'full' | 'upper-half';
}

/**
 * The delay after the n-th consecutive failure (1-based): exponential, capped, jittered. The exponent stops at
 * 30, past which any sensible ceiling is maxMs already, so a long outage cannot overflow it.
 */
export function backoffDelay(
  failures: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const { initialMs = 100, maxMs = 10_000, multiplier = 2, jitter = 'full' } = options;
  const ceiling = Math.min(maxMs, initialMs * multiplier ** Math.min(failures - 1, 30));
  if (jitter === 'upper-half') return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  return Math.max(initialMs / 2, random() * ceiling);
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
