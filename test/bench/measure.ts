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
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
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
