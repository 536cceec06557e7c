import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freshDatabase, realServersEnv } from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { createDeployment, MODULES, waitReadyFrom, type Deployment, type Module } from './deployment';
import {
  computeFigures,
  formatFigures,
  goals,
  outstanding,
  readStored,
  type DownWindow,
  type Restart,
} from './figures';
import { startChaosKafka, type ChaosKafka } from './kafka';
import { replayStarts, runLoad, type LoadResult } from './load';
import { startReceiver, type WebhookReceiver } from './receiver';

// The chaos run (issue 18): the split deployment (one process per module) on real Postgres, Kafka and MinIO,
// verifications through REST with client retries, a live program drawing from a reward pool, a webhook receiver
// that fails some requests, and a process SIGKILLed and restarted every few seconds (Kafka once). Not part of
// `npm test`: `cd test && npm run chaos` (settings: CHAOS_* below, and test/chaos/README.md).

const num = (name: string, fallback: number): number => {
  const v = process.env[name];
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) && n !== Infinity) throw new Error(`${name} must be a number, not ${v}`);
  return n;
};

const settings = {
  verifications: num('CHAOS_VERIFICATIONS', 3000),
  concurrency: num('CHAOS_CONCURRENCY', 8),
  killEveryMs: num('CHAOS_KILL_EVERY_MS', 6000),
  maxKills: num('CHAOS_MAX_KILLS', Infinity),
  /** Which kill (0-based) is Kafka's; -1: Kafka is never killed. */
  kafkaKillAt: num('CHAOS_KAFKA_KILL_AT', 2),
  /** No new flow starts after this (the load's cap); the run as a whole is bounded by it plus the settling. */
  durationMs: num('CHAOS_DURATION_MS', 20 * 60_000),
  quiesceMs: num('CHAOS_QUIESCE_MS', 120_000),
  flowDeadlineMs: num('CHAOS_FLOW_DEADLINE_MS', 120_000),
  attemptTimeoutMs: num('CHAOS_ATTEMPT_TIMEOUT_MS', 11_000),
  webhookFailRate: num('CHAOS_WEBHOOK_FAIL_RATE', 0.05),
  readyGoalMs: num('CHAOS_READY_GOAL_MS', 5000),
  readyTimeoutMs: num('CHAOS_READY_TIMEOUT_MS', 60_000),
  seed: num('CHAOS_SEED', 18),
  strict: process.env.CHAOS_STRICT !== '0',
  out: process.env.CHAOS_OUT || path.join(tmpdir(), 'eligo-chaos-last-run.json'),
  logLevel: process.env.CHAOS_LOG_LEVEL || 'warn',
  // Shorter than the production schedule (0,5s,5m,...): a delivery failed twice must still arrive in the run.
  webhookRetrySchedule: process.env.CHAOS_WEBHOOK_RETRY_SCHEDULE || '0,2s,5s,10s,20s,30s,1m,2m',
  keepDatabase: process.env.CHAOS_KEEP_DB === '1',
  /** After the figures, each module is restarted once more without load: its own start cost, for comparison. */
  quietRestarts: process.env.CHAOS_QUIET_RESTARTS !== '0',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) =>
  process.stdout.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

/** mulberry32 again (receiver.ts has the receiver's own): the kill order is the same for a given seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const runId = randomBytes(4).toString('hex');
const adminToken = `eligo_admin_chaos_${randomBytes(16).toString('hex')}`;
const internalToken = randomBytes(32).toString('base64');
const testTimeout = settings.durationMs + settings.quiesceMs + settings.flowDeadlineMs + 15 * 60_000;

let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
let work: string;
let kafka: ChaosKafka | undefined;
let receiver: WebhookReceiver | undefined;
let deployment: Deployment | undefined;
let pg: Client | undefined;

afterAll(async () => {
  await deployment?.stopAll().catch(() => undefined);
  await kafka?.destroy().catch(() => undefined);
  await receiver?.close().catch(() => undefined);
  await pg?.end().catch(() => undefined);
  if (!settings.keepDatabase) await db?.drop().catch(() => undefined);
  else if (db) log(`database kept: ${db.url}`);
  if (work) rmSync(path.join(work, 'kafka'), { recursive: true, force: true });
}, 120_000);

it(
  `loses, duplicates and strands nothing while processes are SIGKILLed (${settings.verifications} verifications)`,
  async () => {
    work = mkdtempSync(path.join(tmpdir(), `eligo-chaos-${runId}-`));
    const logDir = path.join(work, 'logs');
    mkdirSync(logDir);
    log(`run ${runId}: logs in ${logDir}; settings ${JSON.stringify(settings)}`);

    db = await freshDatabase();
    kafka = await startChaosKafka(path.join(work, 'kafka'));
    log(`own Kafka at ${kafka.brokers}`);
    receiver = await startReceiver(work, settings.webhookFailRate, settings.seed);

    const restarts: Restart[] = [];
    const windows: DownWindow[] = [];
    let phase: Restart['phase'] = 'startup';
    let loadStartedAt = Date.now();
    const at = (t: number) => Math.round((t - loadStartedAt) / 100) / 10;

    // A process that exits without being killed is restarted at once (and counted as a crash).
    const onUnexpectedExit = (module: Module, code: number | null, output: string) => {
      const crashedAt = Date.now();
      const crashPhase = phase;
      log(`${module} EXITED on its own (code ${code}); last output:\n${output.slice(-1500)}`);
      if (!deployment) return;
      void deployment.restart(module, settings.readyTimeoutMs).then(
        (readyMs) => {
          if (readyMs === undefined) return;
          restarts.push({
            target: module,
            reason: 'crash',
            phase: crashPhase,
            when: crashedAt,
            readyMs,
            downMs: Date.now() - crashedAt,
          });
          windows.push({ target: module, from: crashedAt, to: Date.now() });
        },
        (err: Error) => {
          restarts.push({
            target: module,
            reason: 'crash',
            phase: crashPhase,
            when: crashedAt,
            error: err.message,
          });
          windows.push({ target: module, from: crashedAt, to: Date.now() });
        },
      );
    };

    const env: Record<string, string> = {
      ...realServersEnv(db.url),
      ELIGO_KAFKA_BROKERS: kafka.brokers,
      // The broker is the run's own and new: the projection reads it from the start.
      ELIGO_REPORTS_PROJECTION_START: 'earliest',
      ELIGO_ADMIN_TOKEN: adminToken,
      ELIGO_INTERNAL_TOKEN: internalToken,
      ELIGO_DATA_DIR: path.join(work, 'data'),
      ELIGO_ORGANIZATIONS_SEED: 'none',
      ELIGO_LOG_LEVEL: settings.logLevel,
      ELIGO_SHUTDOWN_DELAY_MS: '0',
      // The receiver is on loopback: programs checks the callback against it, the notifier when connecting.
      ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    };
    deployment = await createDeployment(
      env,
      {
        notifier: {
          ELIGO_WEBHOOK_RETRY_SCHEDULE: settings.webhookRetrySchedule,
          // The receiver's self-signed certificate (live programs are called over https only).
          NODE_EXTRA_CA_CERTS: receiver.certFile,
        },
      },
      logDir,
      onUnexpectedExit,
    );
    const t0 = Date.now();
    await deployment.start(180_000);
    log(`split deployment ready in ${Date.now() - t0} ms: gateway ${deployment.gatewayUrl}`);

    // The tenant: a live age program (decided from the birth date at once) handing out pool codes, and its webhook.
    const api = programsApi({ httpUrl: deployment.gatewayUrl, adminToken });
    const account = await api.createAccount('Chaos Co');
    const token = await api.createToken(account.accountId);
    const program = await api.createProgram(account.accountId, {
      name: 'Chaos',
      segment: 'age',
      mode: 'live',
      minAge: 18,
      offerType: 'rewardPool',
    });
    const programId = program.programId as string;
    const codeCount = Math.ceil(settings.verifications * 1.1) + 100;
    for (let from = 0; from < codeCount; from += 10_000) {
      const codes = Array.from(
        { length: Math.min(10_000, codeCount - from) },
        (_, i) => `CHAOS-${runId}-${from + i}`,
      );
      const added = await api.admin('POST', `/programs/${programId}/rewardCodes`, { body: { codes } });
      if (added.status !== 200)
        throw new Error(`reward codes: ${added.status} ${JSON.stringify(added.body)}`);
    }
    const hook = await api.v2('POST', `/program/${programId}/webhook`, {
      token: token.token,
      body: { callbackUri: receiver.url },
    });
    if (hook.status !== 200) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
    receiver.setSecret(hook.body.webhook.signingSecret);
    log(`program ${programId}: live age program, ${codeCount} pool codes, webhook ${receiver.url}`);

    // The chaos: every killEveryMs one process (never the one just killed) is SIGKILLed and started again at
    // once on the same ports; Kafka once.
    let chaosOn = true;
    const random = prng(settings.seed);
    const chaos = (async () => {
      let last: string | undefined;
      let kills = 0;
      let lastKillAt = Date.now();
      while (kills < settings.maxKills) {
        while (chaosOn && Date.now() < lastKillAt + settings.killEveryMs) await sleep(100);
        if (!chaosOn) break;
        const candidates = MODULES.filter((m) => m !== last);
        const target: string =
          kills === settings.kafkaKillAt ? 'kafka' : candidates[Math.floor(random() * candidates.length)]!;
        last = target;
        kills++;
        const killedAt = Date.now();
        lastKillAt = killedAt;
        const restart: Restart = { target, reason: 'chaos', phase: 'load', when: killedAt };
        try {
          if (target === 'kafka') {
            await kafka!.kill();
            restart.readyMs = await kafka!.start();
          } else {
            await deployment!.kill(target as Module);
            restart.readyMs = await deployment!.restart(target as Module, settings.readyTimeoutMs);
          }
          restart.downMs = Date.now() - killedAt;
        } catch (err) {
          restart.error = (err as Error).message;
        }
        restarts.push(restart);
        windows.push({ target, from: killedAt, to: Date.now() });
        log(
          `killed ${target} at ${at(killedAt)} s: ${restart.error ? `NOT READY: ${restart.error.split('\n')[0]}` : `ready ${restart.readyMs} ms after restart`}`,
        );
      }
    })();

    loadStartedAt = Date.now();
    phase = 'load';
    let lastProgress = 0;
    const load: LoadResult = await runLoad({
      gatewayUrl: deployment.gatewayUrl,
      programId,
      runId,
      count: settings.verifications,
      concurrency: settings.concurrency,
      attemptTimeoutMs: settings.attemptTimeoutMs,
      flowDeadlineMs: settings.flowDeadlineMs,
      stopAt: loadStartedAt + settings.durationMs,
      onFlowDone: (flow, done) => {
        if (flow.outcome === 'failed') log(`flow ${flow.trackingId} FAILED: ${flow.failure}`);
        if (done - lastProgress >= Math.max(1, Math.floor(settings.verifications / 10))) {
          lastProgress = done;
          const s = (Date.now() - loadStartedAt) / 1000;
          log(`${done}/${settings.verifications} flows in ${s.toFixed(0)} s (${(done / s).toFixed(1)}/s)`);
        }
      },
    });
    chaosOn = false;
    await chaos;
    phase = 'settling';
    log(`load done in ${((load.endedAt - load.startedAt) / 1000).toFixed(0)} s; ${restarts.length} restarts`);

    // Settling: every process up and ready, then replays of every start, then until the webhooks and report rows
    // have caught up (or the time is up).
    for (const m of MODULES) {
      await deployment.restart(m, settings.readyTimeoutMs).catch(() => undefined);
      await waitReadyFrom(deployment.procs[m].current, Date.now(), settings.readyTimeoutMs, m);
    }
    const replay = await replayStarts(
      {
        gatewayUrl: deployment.gatewayUrl,
        programId,
        concurrency: settings.concurrency,
        attemptTimeoutMs: settings.attemptTimeoutMs,
      },
      load.flows,
    );
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    const settleUntil = Date.now() + settings.quiesceMs;
    let stored = await readStored(pg, programId);
    for (;;) {
      const owed = outstanding(stored, receiver.received);
      const settled =
        owed.webhooksOwed === 0 &&
        owed.reportRowsMissing === 0 &&
        owed.reportRowsBehind === 0 &&
        owed.deliveriesPending === 0;
      if (settled || Date.now() > settleUntil) {
        log(`${settled ? 'settled' : 'NOT settled'}: ${JSON.stringify(owed)}`);
        break;
      }
      await sleep(2000);
      stored = await readStored(pg, programId);
    }

    const figures = computeFigures({
      stored,
      flows: load.flows,
      received: receiver.received,
      restarts,
      windows,
      replay,
      retriedBy: load.retriedBy,
      loadStartedAt: load.startedAt,
      loadEndedAt: load.endedAt,
      attemptTimeoutMs: settings.attemptTimeoutMs,
      readyGoalMs: settings.readyGoalMs,
    });
    const g = goals(figures, settings.readyGoalMs);
    const title =
      `Chaos run ${runId}: ${settings.verifications} verifications, split deployment (7 processes), ` +
      `a kill every ${settings.killEveryMs / 1000} s, webhook receiver failing ${settings.webhookFailRate * 100}%`;
    process.stdout.write(formatFigures(figures, g, title));
    // Time-to-ready without the load (the other processes idle): what a restart costs by itself on this machine.
    const quiet: Record<string, number | string> = {};
    if (settings.quietRestarts) {
      await sleep(2000);
      for (const m of MODULES) {
        await deployment.kill(m);
        quiet[m] = await deployment.restart(m, settings.readyTimeoutMs).then(
          (readyMs) => readyMs ?? 'not restarted',
          (err: Error) => `failed: ${err.message.split('\n')[0]}`,
        );
        await sleep(1000);
      }
      process.stdout.write(
        `  time-to-ready without load: ${MODULES.map((m) => `${m} ${quiet[m]}`).join(', ')} (ms)\n`,
      );
    }
    writeFileSync(
      settings.out,
      JSON.stringify(
        { runId, settings, logDir, figures, goals: g, quietRestartsMs: quiet, at: new Date().toISOString() },
        null,
        2,
      ),
    );
    log(`figures written to ${settings.out}; process logs in ${logDir}`);

    if (settings.strict) {
      const missed = g.filter((x) => x.asserted && !x.met).map((x) => `${x.goal}: ${x.value}`);
      expect(missed).toEqual([]);
    }
  },
  testTimeout,
);
