import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** RSS (MiB) and CPU time (user + system of every thread, seconds) of a process, from /proc. */
export function processUsage(pid: number): { rssMb: number; cpuSeconds: number } {
  const rssKb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    rssMb: Math.round(Number(rssKb) / 1024),
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100,
  };
}

/** CPU seconds the whole machine spent busy (every core, every process) since boot, from /proc/stat. */
export function machineBusySeconds(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
  const busy = ticks.slice(0, 8).reduce((sum, t, i) => (i === 3 || i === 4 ? sum : sum + t), 0);
  return busy / 100;
}

export const machineCores = cpus().length;

export interface PhaseUsage {
  /** Peak RSS of the watched process above its level when the phase started (MiB). */
  peakRssMb: number;
  /** CPU seconds of the watched process during the phase. */
  processCpuSeconds: number;
  /** CPU seconds of the whole machine during the phase (the load generator, the stores, the server). */
  machineCpuSeconds: number;
  seconds: number;
}

/** Runs a phase while sampling the process's RSS every 20 ms and counting its and the machine's CPU time. */
export async function observePhase<T>(pid: number, run: () => Promise<T>): Promise<[T, PhaseUsage]> {
  const before = processUsage(pid);
  const machineBefore = machineBusySeconds();
  const started = process.hrtime.bigint();
  let peak = before.rssMb;
  const timer = setInterval(() => (peak = Math.max(peak, processUsage(pid).rssMb)), 20);
  try {
    const result = await run();
    const after = processUsage(pid);
    return [
      result,
      {
        peakRssMb: peak - before.rssMb,
        processCpuSeconds: after.cpuSeconds - before.cpuSeconds,
        machineCpuSeconds: machineBusySeconds() - machineBefore,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      },
    ];
  } finally {
    clearInterval(timer);
  }
}
