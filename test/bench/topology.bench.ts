import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDeployment } from '../chaos/deployment';
import {
  freePort,
  freshDatabase,
  realServersEnv,
  startEligo,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';
import { call, programsApi } from '../support/programs-api';
import { importUniversity, janeDoe } from '../support/verification-api';
import { measure, report, type Figures } from './measure';

/**
 * The two-request test-mode flow (as in verification.bench.ts) against three topologies of real `eligo`
 * processes, one after the other in the same run, each on a database of its own, the load generator in this
 * process:
 *  - all-in-one: one `eligo start --target all` (modules in process);
 *  - split: one process per module (seven), gRPC between them over loopback with the internal token;
 *  - split with two gateways: the same plus a second `--target gateway` process, the clients spread over both.
 * Each is measured at saturation (32 clients, closed loop); every row prints its ratio to the all-in-one row of
 * the run. Everything shares the machine's cores, Postgres, Kafka and MinIO included: on 2 cores the split
 * deployment pays its extra hops without gaining a core, which is what this measures.
 * Run: `cd test && npm run bench -- topology`.
 */
const FLOWS = 2000;
const WARM_UP = 300;
const CONCURRENCY = 32;
const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
const internalToken = randomBytes(32).toString('hex');

interface Topology {
  /** Where the clients send their flows (one gateway each, used in turn). */
  gatewayUrls: string[];
  stop(): Promise<void>;
}

it('test-mode verification flow: all-in-one, split, and split with two gateways', async () => {
  const rows: Figures[] = [];
  rows.push(await measureTopology('all-in-one (--target all)', allInOne));
  rows.push(await measureTopology('split, one process per module', (env) => split(env, 1)));
  rows.push(await measureTopology('split, two gateway processes', (env) => split(env, 2)));
  report('verification flow by topology (2 requests per flow; perSecond = flows/s; ms per flow)', rows);
  const [one, splitOne, splitTwo] = rows as [Figures, Figures, Figures];
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
): Promise<Figures> {
  const db = await freshDatabase();
  const data = mkdtempSync(path.join(tmpdir(), 'eligo-bench-'));
  const topology = await start({
    ...realServersEnv(db.url),
    ELIGO_ADMIN_TOKEN: adminToken,
    ELIGO_INTERNAL_TOKEN: internalToken,
    ELIGO_DATA_DIR: data,
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_LOG_LEVEL: 'warn',
  });
  try {
    const api = programsApi({ httpUrl: topology.gatewayUrls[0]!, adminToken });
    const { account } = await api.tenant('Bench Co');
    const { programId } = await api.createProgram(account.accountId, {
      offerType: 'staticCode',
      rewardCode: 'BENCH-10',
    });
    const organization = await importUniversity(api, programId);
    const failures = { count: 0, first: '' };
    const run = async (i: number) => {
      const base = `${topology.gatewayUrls[i % topology.gatewayUrls.length]}/rest/v2`;
      try {
        const started = await call(base, 'POST', '/verification', { body: { programId } });
        if (started.status !== 200) throw new Error(`start: ${started.status}`);
        const done = await call(
          base,
          'POST',
          `/verification/${started.body.verificationId}/step/collectStudentPersonalInfo`,
          {
            body: { ...janeDoe, email: `student-${i}@example.com`, organization },
          },
        );
        if (done.body.currentStep !== 'success')
          throw new Error(`submit: ${done.status} ${done.body.currentStep}`);
      } catch (err) {
        failures.count++;
        failures.first ||= err instanceof Error ? err.message : String(err);
      }
    };
    await measure('warm-up', WARM_UP, CONCURRENCY, run);
    const figures = await measure(`${label}, ${CONCURRENCY} clients`, FLOWS, CONCURRENCY, run);
    if (failures.count > 0)
      throw new Error(`${label}: ${failures.count} failed flows, first: ${failures.first}`);
    return figures;
  } finally {
    await topology.stop();
    await db.drop();
    rmSync(data, { recursive: true, force: true });
  }
}

async function allInOne(env: Record<string, string>): Promise<Topology> {
  const eligo = await startEligo(['start', '--target', 'all'], env);
  await waitReady(eligo, 120_000);
  return { gatewayUrls: [eligo.httpUrl], stop: async () => void (await eligo.stop('SIGKILL')) };
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
