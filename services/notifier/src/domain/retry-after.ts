/**
 * A Retry-After header (RFC 9110 §10.2.3: delta-seconds or an HTTP-date) → milliseconds from `now`, or undefined
 * when absent or unreadable: a receiver's garbage must not change our schedule, so it is ignored, not guessed.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  // A negative delta is not valid HTTP, but its meaning ("now") is plain: 0 rather than ignoring it.
  if (/^-?\d+$/.test(text)) return Math.max(0, Number(text) * 1000);
  // Every HTTP-date form names the day and month; Date.parse alone would also read bare numbers and the like.
  if (!/^[A-Za-z]{3}/.test(text) || !/\d{2}:\d{2}:\d{2}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
