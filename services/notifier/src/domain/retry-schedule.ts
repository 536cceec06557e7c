/**
 * When the attempts of one delivery happen. The schedule lists the delay before each attempt (the first is
 * normally 0: send at once); the delivery is given up once every entry has been used.
 */

/** 10 attempts over about two and a half days, quick at first (a receiver's blip), then hours apart. */
export const DEFAULT_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h,14h,20h';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Longest single delay in a schedule: a longer one is a typo more likely than an intent. */
export const MAX_SCHEDULE_DELAY_MS = 7 * UNIT_MS.d;

/** Retry-After is honoured up to a day, so that a receiver cannot park a delivery for ever. */
export const MAX_RETRY_AFTER_MS = UNIT_MS.d;

/** Spread of the delays, so that deliveries failed together (a receiver's outage) are not retried together. */
const JITTER = 0.2;

/**
 * `30s`, `5m`, `5d`, `250ms` → milliseconds. A bare number is only accepted for 0: `5` alone is more likely a
 * forgotten unit than five milliseconds.
 */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  const amount = match ? Number(match[1]) : NaN;
  const unit = match?.[2] as keyof typeof UNIT_MS | undefined;
  if (!match || (unit === undefined && amount !== 0) || !Number.isSafeInteger(amount)) {
    throw new Error(
      `"${text}" is not a duration: use a whole number and a unit ms, s, m, h or d (like 5m or 2h)`,
    );
  }
  return amount * (unit ? UNIT_MS[unit] : 0);
}

/** `0,5s,5m` → [0, 5000, 300000]. Throws naming the bad entry. */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === '') throw new Error('the retry schedule is empty: give at least one delay, like 0');
  return text.split(',').map((entry) => {
    const delay = parseDuration(entry);
    if (delay > MAX_SCHEDULE_DELAY_MS) {
      throw new Error(`retry schedule entry "${entry.trim()}" is longer than 7d`);
    }
    return delay;
  });
}

/**
 * The delay before the next attempt, or undefined when the schedule is used up (the delivery is given up).
 * `attemptsMade` counts the attempts already made, so schedule[attemptsMade] is the next one's delay.
 *
 * With a Retry-After from the receiver, the larger of both is used: never sooner than our schedule (a receiver
 * cannot make us hammer it, nor skip our back-off) and never sooner than the receiver asked.
 */
export function nextAttemptDelayMs(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a whole number ≥ 0, not ${attemptsMade}`);
  }
  const planned = schedule[attemptsMade];
  if (planned === undefined) return undefined;
  // A 0 stays 0: "send at once" is not jittered into a delay.
  const delay = Math.round(planned * (1 + JITTER * (2 * random() - 1)));
  if (retryAfterMs === undefined || Number.isNaN(retryAfterMs)) return delay;
  return Math.max(delay, Math.min(Math.max(retryAfterMs, 0), MAX_RETRY_AFTER_MS));
}
