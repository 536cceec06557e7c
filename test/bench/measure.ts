/** Latency percentiles and throughput of `total` calls of `fn`, `concurrency` at a time. */
export interface Figures {
  label: string;
  total: number;
  concurrency: number;
  perSecond: number;
  p50ms: number;
  p95ms: number;
  p99ms: number;
}

export async function measure(
  label: string,
  total: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async (): Promise<void> => {
    while (next < total) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      await fn(i);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summarize(label, total, concurrency, secondsSince(started), latencies);
}

/**
 * Open loop: call i of `total` is started at `i / perSecond` seconds whether or not earlier ones have
 * answered, as independent users would arrive. Each latency counts from the call's scheduled start, so a
 * stall also charges the calls that queued behind it (a closed loop would just wait and hide them).
 * `concurrency` in the figures is the most calls that were in flight at once.
 */
export async function measureOpenLoop(
  label: string,
  total: number,
  perSecond: number,
  fn: (i: number) => Promise<void>,
): Promise<Figures> {
  const latencies: number[] = [];
  const calls: Promise<void>[] = [];
  let inFlight = 0;
  let peak = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < total; i++) {
    const due = started + BigInt(Math.round((i * 1e9) / perSecond));
    const ahead = Number(due - process.hrtime.bigint()) / 1e6;
    // Timers are only good to about a millisecond; a call that is due sooner (or late) starts now.
    if (ahead >= 1) await new Promise((resolve) => setTimeout(resolve, ahead));
    peak = Math.max(peak, ++inFlight);
    calls.push(
      fn(i).finally(() => {
        inFlight--;
        latencies.push(Number(process.hrtime.bigint() - due) / 1e6);
      }),
    );
  }
  await Promise.all(calls);
  return summarize(label, total, peak, secondsSince(started), latencies);
}

const secondsSince = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

/** Figures of `total` calls that took `seconds` in all, from their latencies (measured here or elsewhere). */
export function summarize(
  label: string,
  total: number,
  concurrency: number,
  seconds: number,
  latencies: number[],
): Figures {
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return {
    label,
    total,
    concurrency,
    perSecond: round(total / seconds),
    p50ms: at(0.5),
    p95ms: at(0.95),
    p99ms: at(0.99),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

export function report(title: string, rows: Figures[]): void {
  process.stdout.write(`\n${title}\n`);
  console.table(rows); // eslint-disable-line no-console
}
