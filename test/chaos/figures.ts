import type { Client } from 'pg';
import type { FlowRecord } from './load';
import type { Received } from './receiver';

/** A process killed (or found dead) and started again. */
export interface Restart {
  target: string;
  reason: 'chaos' | 'crash';
  /** startup: a crash while the deployment first started (not counted in the time-to-ready figures). */
  phase: 'startup' | 'load' | 'settling';
  /** When it was killed or found dead (epoch ms). */
  when: number;
  /** Seconds since the load began (negative: before); set by computeFigures. */
  at?: number;
  /** From the new process's spawn to /readyz 200 (Kafka: to answering metadata). */
  readyMs?: number;
  /** From the kill (or the crash) to ready: how long the target had no replica. */
  downMs?: number;
  error?: string;
}

/** A period during which one target had no running, ready replica (absolute ms). */
export interface DownWindow {
  target: string;
  from: number;
  to: number;
}

/** What the database says about the program's verifications, claims, report rows and deliveries. */
export interface Stored {
  verifications: {
    id: string;
    tracking_id: string | null;
    current_step: string;
    reward_code: string | null;
  }[];
  claims: { code: string; claimed_by: string; confirmed: boolean }[];
  reportRows: { verification_id: string; current_step: string | null }[];
  deliveries: { verification_id: string; event_type: string; status: string; attempt_count: number }[];
}

export async function readStored(db: Client, programId: string): Promise<Stored> {
  const q = async <T>(sql: string) => (await db.query(sql, [programId])).rows as T[];
  return {
    verifications: await q(
      'select id, tracking_id, current_step, reward_code from verification.verifications where program_id = $1',
    ),
    claims: await q(
      `select code, claimed_by, confirmed_at is not null as confirmed from programs.reward_codes
        where program_id = $1 and claimed_by is not null`,
    ),
    reportRows: await q(
      'select verification_id, current_step from reports.verification_rows where program_id = $1',
    ),
    deliveries: await q(
      'select verification_id, event_type, status, attempt_count from notifier.deliveries where program_id = $1',
    ),
  };
}

const FINAL = new Set(['success', 'error']);

/** Work the system still owes: webhooks not yet taken by the receiver, report rows missing or behind. */
export function outstanding(stored: Stored, received: Received[]) {
  const accepted = acceptedIdsByVerification(received);
  const successes = stored.verifications.filter((v) => v.current_step === 'success');
  const rows = new Map(stored.reportRows.map((r) => [r.verification_id, r.current_step]));
  return {
    webhooksOwed: successes.filter((v) => !accepted.has(v.id)).length,
    reportRowsMissing: stored.verifications.filter((v) => !rows.has(v.id)).length,
    reportRowsBehind: stored.verifications.filter((v) => rows.has(v.id) && rows.get(v.id) !== v.current_step)
      .length,
    deliveriesPending: stored.deliveries.filter((d) => d.status === 'pending').length,
  };
}

/** Distinct webhook-ids the receiver answered 2xx, per verification (SUCCESS notifications only). */
function acceptedIdsByVerification(received: Received[]): Map<string, Set<string>> {
  const byVerification = new Map<string, Set<string>>();
  for (const r of received) {
    if (r.status !== 200 || !r.verificationId || r.eventType !== 'SUCCESS') continue;
    const set = byVerification.get(r.verificationId) ?? new Set<string>();
    set.add(r.webhookId);
    byVerification.set(r.verificationId, set);
  }
  return byVerification;
}

const percentile = (values: number[], p: number): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const countBy = <T>(items: T[], key: (t: T) => string): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const i of items) out[key(i)] = (out[key(i)] ?? 0) + 1;
  return out;
};

const sample = (items: string[], n = 5) => items.slice(0, n);

export interface FigureInput {
  stored: Stored;
  flows: FlowRecord[];
  received: Received[];
  restarts: Restart[];
  windows: DownWindow[];
  replay: { checked: number; otherId: string[]; notReplayed: string[] };
  retriedBy: Record<string, number>;
  loadStartedAt: number;
  loadEndedAt: number;
  attemptTimeoutMs: number;
  readyGoalMs: number;
}

export function computeFigures(input: FigureInput) {
  const { stored, flows, received, windows } = input;
  const restarts = input.restarts
    .map((r) => ({ ...r, at: Math.round((r.when - input.loadStartedAt) / 100) / 10 }))
    .sort((a, b) => a.when - b.when);
  const started = flows.filter((f) => f.startedAt > 0);
  const succeeded = started.filter((f) => f.outcome === 'succeeded');
  const failed = started.filter((f) => f.outcome === 'failed');
  // A failure counts against the goal unless it happened while a killed target had no replica (or within one
  // client attempt of it coming back).
  const inWindow = (t: number) => windows.some((w) => t >= w.from && t <= w.to + input.attemptTimeoutMs);
  const failedOutside = failed.filter((f) => !inWindow(f.failedAt ?? 0));
  const durations = succeeded.map((f) => f.endedAt! - f.startedAt);

  const verifications = stored.verifications;
  const byId = new Map(verifications.map((v) => [v.id, v]));
  const stuck = verifications.filter((v) => !FINAL.has(v.current_step));
  const dbSuccesses = verifications.filter((v) => v.current_step === 'success');

  // Duplicate verifications: several ids for one Idempotency-Key (client side and replays), several rows for
  // one trackingId (the flow's key) in the database.
  const keysWithSeveralIds = started.filter((f) => f.startIds.size > 1).map((f) => f.trackingId);
  const perTracking = countBy(
    verifications.filter((v) => v.tracking_id),
    (v) => v.tracking_id!,
  );
  const trackingIdsWithSeveral = Object.entries(perTracking)
    .filter(([, n]) => n > 1)
    .map(([t]) => t);

  // Reward codes: a code on two verifications, a client told another code than the one stored, claims that no
  // success kept (the reconciler returns them to the pool after 10 minutes).
  const perCode = countBy(
    verifications.filter((v) => v.reward_code),
    (v) => v.reward_code!,
  );
  const codesOnSeveral = Object.entries(perCode)
    .filter(([, n]) => n > 1)
    .map(([c]) => c);
  const clientCodes = countBy(
    succeeded.filter((f) => f.rewardCode),
    (f) => f.rewardCode!,
  );
  const clientCodesTwice = Object.entries(clientCodes)
    .filter(([, n]) => n > 1)
    .map(([c]) => c);
  const codeMismatch = succeeded
    .filter((f) => f.verificationId && byId.get(f.verificationId)?.reward_code !== f.rewardCode)
    .map((f) => f.trackingId);
  const claimsKept = stored.claims.filter((c) => byId.get(c.claimed_by)?.reward_code === c.code);
  const claimsNotKept = stored.claims.filter((c) => byId.get(c.claimed_by)?.reward_code !== c.code);
  const claimPairs = new Set(stored.claims.map((c) => `${c.claimed_by} ${c.code}`));
  const successesWithoutClaim = dbSuccesses.filter((v) => !claimPairs.has(`${v.id} ${v.reward_code}`));

  // Webhooks: distinct webhook-ids accepted per success; retries of one delivery share its webhook-id.
  const accepted = acceptedIdsByVerification(received);
  const perVerification = countBy(dbSuccesses, (v) => String(accepted.get(v.id)?.size ?? 0));
  const lost = dbSuccesses.filter((v) => !accepted.has(v.id));
  const duplicateDeliveries = dbSuccesses.filter((v) => (accepted.get(v.id)?.size ?? 0) > 1);
  const acceptedTwice = Object.entries(
    countBy(
      received.filter((r) => r.status === 200),
      (r) => r.webhookId,
    ),
  ).filter(([, n]) => n > 1).length;
  const notForSuccess = [...accepted.keys()].filter((id) => byId.get(id)?.current_step !== 'success');

  const rows = new Map(stored.reportRows.map((r) => [r.verification_id, r.current_step]));
  const rowsMissing = verifications.filter((v) => !rows.has(v.id));
  const rowsBehind = verifications.filter((v) => rows.has(v.id) && rows.get(v.id) !== v.current_step);

  const eligo = restarts.filter((r) => r.target !== 'kafka' && r.phase !== 'startup');
  const eligoReady = eligo.flatMap((r) => (r.readyMs === undefined ? [] : [r.readyMs]));
  const kafka = restarts.filter((r) => r.target === 'kafka');
  const readySummary = (values: number[]) => ({
    count: values.length,
    min: values.length ? Math.min(...values) : undefined,
    median: percentile(values, 50),
    max: values.length ? Math.max(...values) : undefined,
    over5s: values.filter((v) => v > input.readyGoalMs).length,
  });
  const byTarget: Record<string, number[]> = {};
  for (const r of restarts) if (r.readyMs !== undefined) (byTarget[r.target] ??= []).push(r.readyMs);

  const seconds = (input.loadEndedAt - input.loadStartedAt) / 1000;
  return {
    flows: {
      planned: flows.length,
      started: started.length,
      succeeded: succeeded.length,
      failed: failed.length,
      failedOutsideDownWindows: failedOutside.length,
      failures: sample(
        failed.map((f) => `${f.trackingId}: ${f.failure}`),
        10,
      ),
      seconds: Math.round(seconds),
      perSecond: Math.round((succeeded.length / seconds) * 10) / 10,
      latencyMs: {
        p50: percentile(durations, 50),
        p99: percentile(durations, 99),
        max: percentile(durations, 100),
      },
      // Flows a client waited on longer than one attempt's budget, and longer than the gateway's idempotency lock.
      slowerThan11s: durations.filter((d) => d > 11_000).length,
      slowerThan60s: durations.filter((d) => d > 60_000).length,
      attempts: started.reduce((n, f) => n + f.attempts, 0),
      retriedBy: input.retriedBy,
    },
    created: verifications.length,
    succeededInDatabase: dbSuccesses.length,
    endedInError: verifications.filter((v) => v.current_step === 'error').length,
    stuck: {
      count: stuck.length,
      steps: countBy(stuck, (v) => v.current_step),
      sample: sample(stuck.map((v) => v.id)),
    },
    duplicates: {
      verificationsPerIdempotencyKey: keysWithSeveralIds.length,
      replayNamedAnotherVerification: input.replay.otherId.length,
      replaysChecked: input.replay.checked,
      replaysNotReplayed: input.replay.notReplayed.length,
      replaysNotReplayedSample: sample(input.replay.notReplayed),
      verificationsPerTrackingId: trackingIdsWithSeveral.length,
      verificationsPerTrackingIdSample: sample(trackingIdsWithSeveral),
      rewardCodesOnSeveralVerifications: codesOnSeveral.length,
      rewardCodesSeenTwiceByClients: clientCodesTwice.length,
      webhookDeliveriesPerVerification: duplicateDeliveries.length,
    },
    rewardCodes: {
      issued: Object.keys(perCode).length,
      clientCodeDiffersFromStored: codeMismatch.length,
      claimsKept: claimsKept.length,
      claimsNotKept: claimsNotKept.length,
      claimsNotKeptConfirmed: claimsNotKept.filter((c) => c.confirmed).length,
      successesWithoutTheirClaim: successesWithoutClaim.length,
    },
    webhooks: {
      requests: received.length,
      answered500: received.filter((r) => r.status !== 200).length,
      badSignatures: received.filter((r) => !r.signatureOk).length,
      acceptedWebhookIds: [...accepted.values()].reduce((n, s) => n + s.size, 0),
      sameWebhookIdAcceptedTwice: acceptedTwice,
      deliveriesPerSuccess: perVerification,
      lost: lost.length,
      lostSample: sample(lost.map((v) => v.id)),
      forVerificationsNotSucceeded: notForSuccess.length,
      notifierDeliveries: countBy(stored.deliveries, (d) => `${d.event_type}/${d.status}`),
    },
    reports: {
      rows: stored.reportRows.length,
      created: verifications.length,
      missing: rowsMissing.length,
      behind: rowsBehind.length,
    },
    restarts: {
      eligo: readySummary(eligoReady),
      kafka: readySummary(kafka.flatMap((r) => (r.readyMs === undefined ? [] : [r.readyMs]))),
      byTarget: Object.fromEntries(Object.entries(byTarget).map(([t, v]) => [t, readySummary(v)])),
      failed: restarts
        .filter((r) => r.error)
        .map((r) => `${r.target} at ${r.at} s: ${r.error!.slice(0, 300)}`),
      crashes: restarts.filter((r) => r.reason === 'crash').length,
      crashesAtStartup: restarts.filter((r) => r.reason === 'crash' && r.phase === 'startup').length,
      list: restarts,
    },
  };
}

export type Figures = ReturnType<typeof computeFigures>;

export interface Goal {
  goal: string;
  value: string;
  met: boolean;
  /** Asserted when CHAOS_STRICT is not 0. */
  asserted: boolean;
}

export function goals(f: Figures, readyGoalMs: number): Goal[] {
  const d = f.duplicates;
  const dupVerifications =
    d.verificationsPerIdempotencyKey + d.replayNamedAnotherVerification + d.verificationsPerTrackingId;
  const dupCodes = d.rewardCodesOnSeveralVerifications + d.rewardCodesSeenTwiceByClients;
  const median = f.restarts.eligo.median;
  return [
    { goal: '0 lost webhooks', value: String(f.webhooks.lost), met: f.webhooks.lost === 0, asserted: true },
    {
      goal: '0 duplicate verifications',
      value: String(dupVerifications),
      met: dupVerifications === 0,
      asserted: true,
    },
    { goal: '0 duplicate reward codes', value: String(dupCodes), met: dupCodes === 0, asserted: true },
    {
      goal: '0 duplicate webhook deliveries',
      value: String(d.webhookDeliveriesPerVerification),
      met: d.webhookDeliveriesPerVerification === 0,
      asserted: true,
    },
    { goal: '0 stuck', value: String(f.stuck.count), met: f.stuck.count === 0, asserted: true },
    {
      goal: 'report rows = created',
      value: `${f.reports.rows} / ${f.created}`,
      met: f.reports.missing === 0 && f.reports.rows === f.created,
      asserted: true,
    },
    {
      goal: '0 client-visible failures outside no-replica windows',
      value: `${f.flows.failedOutsideDownWindows} (all failures: ${f.flows.failed})`,
      met: f.flows.failedOutsideDownWindows === 0,
      asserted: true,
    },
    {
      goal: `median time-to-ready <= ${readyGoalMs / 1000} s`,
      value: median === undefined ? 'no restart' : `${median} ms`,
      met: median === undefined || median <= readyGoalMs,
      asserted: true,
    },
    {
      goal: `every restart ready <= ${readyGoalMs / 1000} s`,
      value: `${f.restarts.eligo.over5s} over, ${f.restarts.failed.length} failed (max ${f.restarts.eligo.max ?? '-'} ms)`,
      met: f.restarts.eligo.over5s === 0 && f.restarts.failed.length === 0,
      asserted: false,
    },
    {
      goal: '0 client-visible failures after retries',
      value: String(f.flows.failed),
      met: f.flows.failed === 0,
      asserted: false,
    },
  ];
}

/** The figures as a plain-text table. */
export function formatFigures(f: Figures, g: Goal[], title: string): string {
  const ms = (v: number | undefined) => (v === undefined ? '-' : `${v}`);
  const ready = (s: Figures['restarts']['eligo']) =>
    s.count === 0 ? 'none' : `n=${s.count}  min ${ms(s.min)} / median ${ms(s.median)} / max ${ms(s.max)} ms`;
  const d = f.duplicates;
  const lines: [string, string][] = [
    ['flows started / planned', `${f.flows.started} / ${f.flows.planned}`],
    ['created (verifications stored)', String(f.created)],
    ['succeeded (clients / database)', `${f.flows.succeeded} / ${f.succeededInDatabase}`],
    ['ended in error (database)', String(f.endedInError)],
    [
      'client-visible failures after retries',
      `${f.flows.failed} (outside no-replica windows: ${f.flows.failedOutsideDownWindows})`,
    ],
    ['stuck (not success/error)', `${f.stuck.count} ${JSON.stringify(f.stuck.steps)}`],
    [
      'duplicate verifications',
      `per key ${d.verificationsPerIdempotencyKey}, replay named another ${d.replayNamedAnotherVerification} ` +
        `(${d.replaysChecked} replayed, ${d.replaysNotReplayed} not replayed), per trackingId ${d.verificationsPerTrackingId}`,
    ],
    [
      'duplicate reward codes',
      `${d.rewardCodesOnSeveralVerifications} stored twice, ${d.rewardCodesSeenTwiceByClients} seen twice by clients`,
    ],
    [
      'reward codes',
      `${f.rewardCodes.issued} issued; client/stored differ ${f.rewardCodes.clientCodeDiffersFromStored}; ` +
        `claims not kept ${f.rewardCodes.claimsNotKept} (confirmed ${f.rewardCodes.claimsNotKeptConfirmed})`,
    ],
    ['webhook deliveries per success', JSON.stringify(f.webhooks.deliveriesPerSuccess)],
    ['duplicate webhook deliveries', String(d.webhookDeliveriesPerVerification)],
    ['lost webhooks', String(f.webhooks.lost)],
    [
      'webhook requests',
      `${f.webhooks.requests} (500 ${f.webhooks.answered500}, same id accepted twice ${f.webhooks.sameWebhookIdAcceptedTwice}, bad signature ${f.webhooks.badSignatures})`,
    ],
    [
      'report rows vs created',
      `${f.reports.rows} / ${f.created} (missing ${f.reports.missing}, behind ${f.reports.behind})`,
    ],
    ['time-to-ready after restart (eligo)', ready(f.restarts.eligo)],
    ['Kafka back after restart', ready(f.restarts.kafka)],
    [
      'restarts failed / crashes',
      `${f.restarts.failed.length} / ${f.restarts.crashes} (${f.restarts.crashesAtStartup} while first starting)`,
    ],
    [
      'throughput, flow latency',
      `${f.flows.perSecond} flows/s over ${f.flows.seconds} s; p50 ${ms(f.flows.latencyMs.p50)} p99 ${ms(f.flows.latencyMs.p99)} ` +
        `max ${ms(f.flows.latencyMs.max)} ms; ${f.flows.slowerThan11s} flows > 11 s, ${f.flows.slowerThan60s} > 60 s`,
    ],
    ['attempts, retried by cause', `${f.flows.attempts} ${JSON.stringify(f.flows.retriedBy)}`],
  ];
  const width = Math.max(...lines.map(([k]) => k.length));
  const out = [`\n${title}`, ...lines.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`), '', '  restarts:'];
  for (const r of f.restarts.list)
    out.push(
      `    ${String(r.at).padStart(6)} s  ${r.target.padEnd(13)} ${r.reason.padEnd(5)} ${r.phase.padEnd(8)} ready ${ms(r.readyMs).padStart(6)} ms` +
        `  down ${ms(r.downMs).padStart(6)} ms${r.error ? `  ERROR ${r.error.split('\n')[0]}` : ''}`,
    );
  out.push('', '  goals:');
  const gw = Math.max(...g.map((x) => x.goal.length));
  for (const x of g) out.push(`    ${x.met ? 'met    ' : 'NOT MET'}  ${x.goal.padEnd(gw)}  ${x.value}`);
  if (f.flows.failures.length)
    out.push('', '  failures (first 10):', ...f.flows.failures.map((s) => `    ${s}`));
  if (f.restarts.failed.length)
    out.push('', '  failed restarts:', ...f.restarts.failed.map((s) => `    ${s}`));
  return `${out.join('\n')}\n`;
}
