import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDeployment } from '../chaos/deployment';
import {
  freePort,
  freshDatabase,
  realServersEnv,
  startEligo,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { importUniversity, janeDoe } from '../support/verification-api';
import { report, summarize, type Figures } from './measure';
import { startBaseline } from './verification-baseline';
import { benchEnv, benchNodeArgs } from './bench-node';

/**
 * The two-request test-mode flow (as in verification.bench.ts) against the Express + pg baseline and three
 * topologies of real `eligo` processes, one after the other in the same run, each on a database of its own,
 * the load generator in a process of its own (bench/load/flow-client.js), so that no server shares its event
 * loop with the clients:
 *  - baseline: verification-baseline.ts, alone in this process (the bench's own event loop is otherwise idle),
 *    in the statements Eligo took at commit e190f51 (17 round trips per flow), and once more, at saturation
 *    only, in those Eligo takes today for the same rows (3; its "lean" row and ratio);
 *  - all-in-one: one `eligo start --target all` (modules in process);
 *  - split: one process per module (seven), gRPC between them over loopback with the internal token;
 *  - split with two gateways: the same plus a second `--target gateway` process, the clients spread over both.
 * Each is measured at saturation (32 clients, closed loop); the all-in-one row prints its ratio to the
 * baseline (issue 23's goal: >= 0.50), the others theirs to the all-in-one row of the run. The baseline and the
 * all-in-one are then measured at half their own saturation in an open loop (flows started on a timer,
 * latencies from their scheduled start; issue 23's goal: p99 <= 50 ms for the all-in-one). Everything shares the machine's cores, Postgres, Kafka and MinIO included: on 2 cores the split
 * deployment pays its extra hops without gaining a core, which is what this measures. Every phase also prints
 * the CPU each process spent per timed flow (read from /proc by the load generator around them): which part
 * of the machine a flow costs is what bounds the throughput on a machine whose cores are all busy.
 * Run: `cd test && npm run bench -- topology`; ELIGO_BENCH_NODE_ARGS passes flags to the all-in-one's node
 * (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), ELIGO_BENCH_ENV variables to every Eligo process's environment.
 * ELIGO_BENCH_ROUNDS=n (default 1) measures the baseline and the all-in-one n times, one after the other, and
 * prints each round's ratio and p99 and their medians: on a shared host a single pair moves by 10% or more.
 * The split rows, measured once after the rounds, compare with the first round's all-in-one.
 */
const FLOWS = 2000;
/**
 * Untimed flows before each phase (closed loop). 300 were too few for the all-in-one: V8 was still optimizing its
 * code during the timed flows (perf: its compiler threads took a fifth of the process's CPU in the first 10 s
 * of a phase, a tenth at its end), which measured a server warming up rather than one serving.
 */
const WARM_UP = 2000;
const CONCURRENCY = 32;
/** Each open-loop phase lasts about this long (at least OPEN_LOOP_MIN flows). */
const OPEN_LOOP_SECONDS = 20;
const OPEN_LOOP_MIN = 500;
const ROUNDS = Number(process.env.ELIGO_BENCH_ROUNDS ?? 1);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 10)
  throw new Error(
    `ELIGO_BENCH_ROUNDS must be a whole number from 1 to 10, got ${process.env.ELIGO_BENCH_ROUNDS}`,
  );

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
const internalToken = randomBytes(32).toString('hex');

interface Topology {
  /** Where the clients send their flows (one gateway each, used in turn). */
  gatewayUrls: string[];
  stop(): Promise<void>;
}

it('test-mode verification flow: baseline, all-in-one, split, and split with two gateways', async () => {
  const rounds: (Figures | undefined)[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push([
      ...(await measureBaseline()),
      ...(await measureTopology('all-in-one (--target all)', allInOne, true)),
    ]);
  }
  // The same rows in Eligo's round trips of today (3 per flow, where the baseline above takes 17): what the
  // layers cost beside today's statements. Saturation only.
  const [lean] = await measureBaseline({ lean: true });
  // ELIGO_BENCH_SPLIT=skip: the baseline and the all-in-one only (half the run's time), for issue 23's two goals.
  const withSplit = process.env.ELIGO_BENCH_SPLIT !== 'skip';
  const [splitOne] = withSplit
    ? await measureTopology('split, one process per module', (env) => split(env, 1))
    : [];
  const [splitTwo] = withSplit
    ? await measureTopology('split, two gateway processes', (env) => split(env, 2))
    : [];
  report(
    'verification flow by topology (2 requests per flow; perSecond = flows/s; ms per flow)',
    [...rounds.flat(), lean, splitOne, splitTwo].filter((row) => row !== undefined),
  );
  process.stdout.write(
    '\nCPU ms per flow by process while the flows ran (server: every node process but the load generator; ' +
      'kafka: its JVM; other: every other process of the machine)\n',
  );
  console.table(cpuRows);
  const ratios = rounds.map(([baseline, , one]) => one!.perSecond / baseline!.perSecond);
  const p99s = rounds.map(([, , , oneHalf]) => oneHalf!.p99ms);
  if (ROUNDS > 1)
    process.stdout.write(
      `rounds: all-in-one / baseline ${ratios.map((r) => r.toFixed(2)).join(', ')}; ` +
        `p99 at half saturation ${p99s.join(', ')} ms (medians below)\n`,
    );
  const ratio = median(ratios);
  const p99 = median(p99s);
  const one = rounds[0]![2]!;
  process.stdout.write(
    `all-in-one / baseline (each in its own process): ${ratio.toFixed(2)} (goal >= 0.50: ${ratio >= 0.5 ? 'met' : 'NOT met'})\n` +
      `all-in-one p99 at half saturation: ${p99} ms (goal <= 50 ms: ${p99 <= 50 ? 'met' : 'NOT met'})\n` +
      `all-in-one / lean baseline (Eligo's 3 round trips per flow instead of 17; first round): ` +
      `${(one.perSecond / lean!.perSecond).toFixed(2)}\n`,
  );
  if (splitOne && splitTwo)
    process.stdout.write(
      `split / all-in-one: ${(splitOne.perSecond / one.perSecond).toFixed(2)}\n` +
        `split with two gateways / all-in-one: ${(splitTwo.perSecond / one.perSecond).toFixed(2)}\n` +
        `two gateways / one gateway (split): ${(splitTwo.perSecond / splitOne.perSecond).toFixed(2)}\n`,
    );
}, 1_800_000);

/** Starts a topology on a fresh database, measures it, and stops it. */
async function measureTopology(
  label: string,
  start: (env: Record<string, string>) => Promise<Topology>,
  openLoop = false,
): Promise<[Figures, Figures?]> {
  const db = await freshDatabase();
  const data = mkdtempSync(path.join(tmpdir(), 'eligo-bench-'));
  const topology = await start({
    ...realServersEnv(db.url),
    ELIGO_ADMIN_TOKEN: adminToken,
    ELIGO_INTERNAL_TOKEN: internalToken,
    ELIGO_DATA_DIR: data,
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_LOG_LEVEL: 'warn',
    ...benchEnv(),
  });
  try {
    const api = programsApi({ httpUrl: topology.gatewayUrls[0]!, adminToken });
    const { account } = await api.tenant('Bench Co');
    const { programId } = await api.createProgram(account.accountId, {
      offerType: 'staticCode',
      rewardCode: 'BENCH-10',
    });
    const organization = await importUniversity(api, programId);
    return await phases(
      label,
      { bases: topology.gatewayUrls.map((url) => `${url}/rest/v2`), programId, organization },
      openLoop,
    );
  } finally {
    await topology.stop();
    await db.drop();
    rmSync(data, { recursive: true, force: true });
  }
}

/**
 * The baseline server in this process, on a database of its own, with the verification service's pool size;
 * `lean`: in Eligo's round trips of today, measured at saturation only.
 */
async function measureBaseline({ lean = false } = {}): Promise<[Figures, Figures?]> {
  const db = await freshDatabase();
  const baseline = await startBaseline(db.url, 5, { lean });
  try {
    return await phases(
      lean ? 'baseline Express + pg, lean (3 round trips)' : 'baseline Express + pg',
      { bases: [baseline.url], programId: 'bench', organization: { id: 1, name: 'Bench University' } },
      !lean,
    );
  } finally {
    await baseline.close();
    await db.drop();
  }
}

type Target = { bases: string[]; programId: string; organization: unknown };

/** Saturation (closed loop), then, with `openLoop`, half of that rate in an open loop. */
async function phases(label: string, target: Target, openLoop: boolean): Promise<[Figures, Figures?]> {
  const saturated = await load(`${label}, ${CONCURRENCY} clients`, target);
  if (!openLoop) return [saturated];
  const rate = Math.max(1, Math.round(saturated.perSecond / 2));
  const total = Math.max(OPEN_LOOP_MIN, rate * OPEN_LOOP_SECONDS);
  return [saturated, await load(`${label}, open loop ${rate} flows/s`, target, { rate, total })];
}

/** CPU per flow of each phase by process (load/flow-client.js reads it from /proc around the timed flows). */
const cpuRows: Record<string, string | number>[] = [];

function cpuRow(label: string, flows: number, cpu: Record<string, number>): Record<string, string | number> {
  const ms = (seconds: number) => Math.round((seconds * 1000 * 100) / flows) / 100;
  const { node = 0, postgres = 0, java = 0, generator = 0, ...rest } = cpu;
  const other = Object.entries(rest)
    .filter(([command]) => !command.endsWith(':system'))
    .reduce((sum, [, s]) => sum + s, 0);
  return {
    label,
    server: ms(node),
    // Of which the kernel's: socket writes and reads, which on loopback include the receiver's TCP work.
    'server system': ms(cpu['node:system'] ?? 0),
    postgres: ms(postgres),
    kafka: ms(java),
    generator: ms(generator),
    other: ms(other),
    total: ms(node + postgres + java + generator + other),
  };
}

/**
 * Runs the warm-up and the timed flows from the load generator's own process (closed loop, or an open loop at
 * `open.rate`); fails on any failed flow.
 */
async function load(label: string, target: Target, open?: { rate: number; total: number }): Promise<Figures> {
  const total = open?.total ?? FLOWS;
  const job = {
    ...target,
    subject: janeDoe,
    step: 'collectStudentPersonalInfo',
    warmUp: WARM_UP,
    total,
    concurrency: CONCURRENCY,
    rate: open?.rate,
  };
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(__dirname, 'load', 'flow-client.js'), JSON.stringify(job)],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    seconds: number;
    latencies: number[];
    failures: number;
    first: string;
    peak: number;
    cpu: Record<string, number>;
  };
  if (result.failures > 0)
    throw new Error(`${label}: ${result.failures} failed flows, first: ${result.first}`);
  cpuRows.push(cpuRow(label, total, result.cpu));
  return summarize(label, total, result.peak, result.seconds, result.latencies);
}

async function allInOne(env: Record<string, string>): Promise<Topology> {
  const nodeArgs = benchNodeArgs();
  const eligo = await startEligo(['start', '--target', 'all'], env, undefined, nodeArgs);
  await waitReady(eligo, 120_000);
  // A profile (ELIGO_BENCH_NODE_ARGS) is written only by a process that exits by itself.
  const signal = nodeArgs.length > 0 ? 'SIGTERM' : 'SIGKILL';
  return { gatewayUrls: [eligo.httpUrl], stop: async () => void (await eligo.stop(signal)) };
}

async function split(env: Record<string, string>, gateways: number): Promise<Topology> {
  const logDir = mkdtempSync(path.join(tmpdir(), 'eligo-bench-logs-'));
  const deployment = await createDeployment(env, {}, logDir, (module, code, output) => {
    process.stdout.write(`${module} exited (${code}) during the benchmark:\n${output.slice(-2000)}\n`);
  });
  const extra: EligoProcess[] = [];
  const stop = async () => {
    for (const proc of extra) await proc.stop('SIGKILL');
    await deployment.stopAll();
    rmSync(logDir, { recursive: true, force: true });
  };
  try {
    await deployment.start(180_000);
    // More gateways: the same module again, pointed at the deployment's backends.
    const addresses = Object.fromEntries(
      Object.values(deployment.procs)
        .filter((p) => p.module !== 'gateway')
        .map((p) => [`ELIGO_${p.module.toUpperCase()}_GRPC_ADDRESS`, `127.0.0.1:${p.grpcPort}`]),
    );
    for (let i = 1; i < gateways; i++) {
      const proc = await startEligo(['start', '--target', 'gateway'], {
        ...env,
        ...addresses,
        ELIGO_HTTP_PORT: String(await freePort()),
        ELIGO_GRPC_PORT: String(await freePort()),
      });
      extra.push(proc);
      await waitReady(proc, 120_000);
    }
    return { gatewayUrls: [deployment.gatewayUrl, ...extra.map((p) => p.httpUrl)], stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
