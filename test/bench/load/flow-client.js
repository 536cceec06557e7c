// Load generator for the topology benchmark, run in its own process so that the server being measured (an
// Eligo process, or the baseline in the bench's process) has no load generator on its event loop. Runs the
// two-request test-mode flow: POST {base}/verification, then the student's personal info, which must succeed.
// Input (argv[2], JSON): { bases: string[] (clients take them in turn), programId, organization, subject,
//   step, warmUp, total, concurrency, rate? }. With `rate` (flows/s) the timed flows run in an open loop: flow
//   i starts at i / rate seconds whether or not earlier ones answered, its latency counted from that time
//   (measure.ts, measureOpenLoop). Output (stdout, JSON): { seconds, latencies (ms), failures, first, peak,
//   cpu } (peak: the most flows in flight at once; cpu: CPU seconds of the timed flows by command, below).
'use strict';

const { readdirSync, readFileSync } = require('node:fs');

/**
 * CPU seconds (user + system, every thread) of every process on the machine, by process (pid and start time:
 * a kernel worker renames itself with each job it takes, so names cannot tell two readings' processes apart),
 * with its command name (postgres, java for Kafka, node, minio...) and the system part apart (on loopback the
 * kernel's TCP work is charged to the process that writes): read here, where the timed flows start and end,
 * so that the warm-up is left out. A process that starts and ends within the flows is missed (none does here).
 */
function cpuByProcess() {
  const processes = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const system = Number(fields[12]) / 100;
    processes.set(`${entry}@${fields[19]}`, { command, total: Number(fields[11]) / 100 + system, system });
  }
  return processes;
}

/**
 * What each command spent between two readings, summed by command name and `<command>:system`; the
 * generator's own share apart (its `node` is not the server's).
 */
function cpuSince(before, ownBefore) {
  const after = cpuByProcess();
  const own = process.cpuUsage(ownBefore);
  const spent = { generator: (own.user + own.system) / 1e6, 'generator:system': own.system / 1e6 };
  const add = (key, seconds) => (spent[key] = (spent[key] ?? 0) + seconds);
  add('node', -spent.generator);
  add('node:system', -spent['generator:system']);
  for (const [id, { command, total, system }] of after) {
    const then = before.get(id);
    add(command, total - (then?.total ?? 0));
    add(`${command}:system`, system - (then?.system ?? 0));
  }
  return spent;
}

async function post(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status < 200 || res.status > 299)
    throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function main() {
  const job = JSON.parse(process.argv[2]);
  let failures = 0;
  let first = '';
  const flow = async (i) => {
    const base = job.bases[i % job.bases.length];
    try {
      const started = await post(`${base}/verification`, { programId: job.programId });
      const done = await post(`${base}/verification/${started.verificationId}/step/${job.step}`, {
        ...job.subject,
        email: `student-${i}@example.com`,
        organization: job.organization,
      });
      if (done.currentStep !== 'success') throw new Error(`submit ended on ${done.currentStep}`);
    } catch (err) {
      failures++;
      first ||= err instanceof Error ? err.message : String(err);
    }
  };
  const run = async (offset, total, latencies) => {
    let next = 0;
    const worker = async () => {
      while (next < total) {
        const i = offset + next++;
        const t0 = process.hrtime.bigint();
        await flow(i);
        latencies?.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    };
    await Promise.all(Array.from({ length: job.concurrency }, worker));
  };
  const openLoop = async (offset, total, rate, latencies) => {
    const calls = [];
    let inFlight = 0;
    let peak = 0;
    const started = process.hrtime.bigint();
    for (let n = 0; n < total; n++) {
      const due = started + BigInt(Math.round((n * 1e9) / rate));
      const ahead = Number(due - process.hrtime.bigint()) / 1e6;
      if (ahead >= 1) await new Promise((resolve) => setTimeout(resolve, ahead));
      peak = Math.max(peak, ++inFlight);
      calls.push(
        flow(offset + n).finally(() => {
          inFlight--;
          latencies.push(Number(process.hrtime.bigint() - due) / 1e6);
        }),
      );
    }
    await Promise.all(calls);
    return peak;
  };
  await run(0, job.warmUp); // untimed: JIT, pools, caches on both sides
  const latencies = [];
  const cpuBefore = cpuByProcess();
  const ownBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  let peak = job.concurrency;
  if (job.rate) peak = await openLoop(job.warmUp, job.total, job.rate, latencies);
  else await run(job.warmUp, job.total, latencies);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = cpuSince(cpuBefore, ownBefore);
  process.stdout.write(JSON.stringify({ seconds, latencies, failures, first, peak, cpu }));
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
