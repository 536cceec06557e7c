import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { freshDatabase, realServersEnv, startEligo, waitReady } from '../support/eligo-process';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import { machineCores, observePhase, processUsage } from './process-usage';
import { copyAsCsv, countLines, cursorRead } from './reports-baseline';
import { rangeOf, seedPrograms, seedVerificationRows, settle, type SeededRange } from './reports-seed';
import { benchEnv, benchNodeArgs } from './bench-node';
import { probeMainThreadMemory } from './heap-probe';

/**
 * A verification report over 250k, 500k and 1M rows, end to end as an integrator gets it: POST
 * /rest/v2/report/verification with a REPORTER token, poll its status every 200 ms until COMPLETE (the
 * reports module's background job reads the projection through a cursor, writes CSV and uploads it to MinIO
 * in parts), then GET /rest/v2/report/{id}, counted as it streams. Per size: seconds from the request to
 * COMPLETE, rows/s and ns per row (linear cost: ns/row stays put as the size grows), eligo's peak RSS
 * (absolute and above its idle level: flat when it does not grow with the size), its CPU seconds, the
 * latency of the status calls it answers meanwhile, the download's seconds and size. In the same run, the
 * floors: the generator's own SELECT read through a pg-cursor in 1000-row batches in this process (no CSV,
 * no upload), and Postgres writing the same rows as CSV itself (COPY TO STDOUT via psql); and, before any
 * report, how far eligo's RSS rises over idle in 20 s of the same status calls without a report.
 *
 * The rows are written straight into reports.verification_rows (one INSERT ... SELECT generate_series per
 * size, each size in its own date range of one account, so each report covers exactly its rows); seeding
 * is not part of any figure. Eligo runs as `eligo start --target all` in its own process on the suite's
 * Postgres, Kafka and MinIO. Goal (issue): <= 60 s at 1M, RSS flat (< 200 MB), cost linear in rows.
 * Run: `cd test && npm run bench -- reports`; ELIGO_BENCH_NODE_ARGS passes flags to eligo's node, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` (written when eligo stops); ELIGO_BENCH_OUTPUT=<file> keeps eligo's
 * output there (e.g. with `--trace-gc`).
 */
const SIZES = [250_000, 500_000, 1_000_000];
/** A first, smaller report: module, pool, bucket and JIT warm before the measured ones. */
const WARM_UP = 20_000;
const BATCH_ROWS = 1000;
const STATUS_POLL_MS = 200;
/** The no-report baseline's length: about what a 1M-row report takes. */
const BASELINE_SECONDS = 20;
const GOAL_SECONDS_AT_1M = 60;
const GOAL_PEAK_RSS_MB = 200;
const GOAL_LINEARITY = 1.5;
/** Issue 23's goals: 1M rows, memory over idle at any size, status calls' p50 while generating. */
const ISSUE_23 = { seconds: 20, overIdleMb: 64, statusMs: 10 };

const ranges: SeededRange[] = [
  rangeOf(WARM_UP, '2024-12-01', 7),
  rangeOf(SIZES[0]!, '2025-01-01', 28),
  rangeOf(SIZES[1]!, '2025-02-01', 28),
  rangeOf(SIZES[2]!, '2025-03-01', 28),
];

const secondsSince = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;
const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places;

/**
 * Requests the range's report and polls its status until COMPLETE; answers its id, the seconds it took and
 * how long each status call took (REST -> gateway -> reports service, in the process generating the report).
 */
async function generate(api: ProgramsApi, token: string, range: SeededRange) {
  const started = process.hrtime.bigint();
  const created = await api.v2('POST', '/report/verification', {
    token,
    body: {
      startDate: range.startDate,
      endDate: range.endDate,
      format: 'CSV',
      isPiiIncluded: false,
      verificationModeInclusion: 'ALL',
    },
  });
  if (created.status !== 202) throw new Error(`report: ${created.status} ${JSON.stringify(created.body)}`);
  const { id, statusUrl } = created.body as { id: string; statusUrl: string };
  const statusPath = new URL(statusUrl).pathname.replace('/rest/v2', '');
  const deadline = Date.now() + 600_000;
  const statusMs: number[] = [];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
    const asked = process.hrtime.bigint();
    const status = await api.v2('GET', statusPath, { token });
    statusMs.push(secondsSince(asked) * 1000);
    if (status.status !== 200) throw new Error(`status: ${status.status} ${JSON.stringify(status.body)}`);
    const state = (status.body as { status: string }).status;
    if (state === 'COMPLETE') return { id, statusPath, seconds: secondsSince(started), statusMs };
    if (state !== 'PENDING') throw new Error(`report ${id} ended ${state}`);
    if (Date.now() > deadline) throw new Error(`report ${id} still PENDING after 10 minutes`);
  }
}

/** Milliseconds of `calls` status calls one after the other, `STATUS_POLL_MS` apart, sorted. */
async function statusLatencies(api: ProgramsApi, token: string, statusPath: string, calls: number) {
  const statusMs: number[] = [];
  for (let i = 0; i < calls; i++) {
    await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
    const asked = process.hrtime.bigint();
    await api.v2('GET', statusPath, { token });
    statusMs.push(secondsSince(asked) * 1000);
  }
  return statusMs.sort((a, b) => a - b);
}

/**
 * The same pattern (a call, then STATUS_POLL_MS idle) against a node:http server in this process that answers
 * at once: what the host itself adds to a call after a pause (a machine whose idle cores wake slowly adds
 * milliseconds to every status call, Eligo's or not).
 */
async function bareServerLatencies(calls: number): Promise<number[]> {
  const server = createServer((_req, res) => res.end('{"status":"PENDING"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`;
    const latencies: number[] = [];
    for (let i = 0; i < calls; i++) {
      await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
      const asked = process.hrtime.bigint();
      await (await fetch(url)).text();
      latencies.push(secondsSince(asked) * 1000);
    }
    return latencies.sort((a, b) => a - b);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)]!;

/** GET /rest/v2/report/{id}, counting bytes and lines as they arrive (the file is never held whole). */
async function download(httpUrl: string, token: string, id: string) {
  const started = process.hrtime.bigint();
  const res = await fetch(`${httpUrl}/rest/v2/report/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200 || !res.body) throw new Error(`download: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  let bytes = 0;
  let lines = 0;
  let head = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    lines += countLines(value);
    if (head.length < 200) head += Buffer.from(value.subarray(0, 200)).toString('utf8');
  }
  return { seconds: secondsSince(started), bytes, lines, header: head.split('\r\n')[0]! };
}

interface Row {
  label: string;
  rows: number;
  'report s': number;
  'rows/s': number;
  'ns/row': number;
  /** completed_at - created_at of the report row: the server's own figure, without the 200 ms polling. */
  'server s': number;
  /** eligo's RSS: its peak while the report was generated, that peak above its idle level, and at the end. */
  'peak RSS MB': number;
  'over idle MB': number;
  'RSS after MB': number;
  /** Peaks of the main thread's heap and external memory while generating (heap-probe.ts). */
  'main heap MB': number;
  'main heap committed MB': number;
  'main external MB': number;
  'eligo CPU s': number;
  /** Cores the whole machine kept busy while the report was generated (eligo, Postgres, MinIO, ...). */
  'busy cores': number;
  /** A status call (every 200 ms) while the report was generated: what the event loop leaves to others. */
  'status p50 ms': number;
  'status max ms': number;
  'download s': number;
  'download MB': number;
  'download peak RSS MB': number;
  'cursor read s': number;
  'COPY csv s': number | string;
  /** The report's seconds over the cursor read's: what CSV, upload and the job add to reading the rows. */
  'x read': number;
}

it(`a verification report of ${SIZES.join(', ')} rows: time, peak RSS, download`, async () => {
  const database = await freshDatabase();
  const adminToken = `eligo_admin_${randomBytes(16).toString('hex')}`;
  const eligo = await startEligo(
    ['start', '--target', 'all'],
    {
      ...realServersEnv(database.url),
      ELIGO_ADMIN_TOKEN: adminToken,
      ELIGO_ORGANIZATIONS_SEED: 'none',
      ELIGO_LOG_LEVEL: 'warn',
      ELIGO_REPORTS_POLL_MS: '100',
      ...benchEnv(),
    },
    undefined,
    benchNodeArgs(),
  );
  const db = new Client({ connectionString: database.url, application_name: 'bench-reports-seed' });
  try {
    await waitReady(eligo);
    await db.connect();
    const api = programsApi({ httpUrl: eligo.httpUrl, adminToken });
    const account = await api.createAccount('Bench Reports');
    const { token } = await api.createToken(account.accountId, 'reporter', ['REPORTER']);
    const programs = [];
    for (const name of ['Spring Students', 'Veterans, 2025']) {
      const { programId } = await api.createProgram(account.accountId, { name });
      programs.push({ programId: programId as string, name });
    }
    await seedPrograms(db, account.accountId, programs);

    const seeding = process.hrtime.bigint();
    for (const range of ranges)
      await seedVerificationRows(
        db,
        account.accountId,
        programs.map((p) => p.programId),
        range,
      );
    await settle(db);
    const seeded = ranges.reduce((sum, r) => sum + r.rows, 0);
    process.stdout.write(`seeded ${seeded} rows in ${secondsSince(seeding).toFixed(1)} s (not measured)\n`);

    const pid = eligo.child.pid!;
    const idleRssMb = processUsage(pid).rssMb;
    // The baseline of the RSS figures, before any report: how far the process's RSS rises above idle with the
    // same status calls (of a report that does not exist) and heap probe but no report, as long as a report of
    // 1M rows takes (its main heap's garbage comes and goes whatever it does).
    const idleProbe = probeMainThreadMemory(eligo.httpUrl);
    const idleCalls = BASELINE_SECONDS * (1000 / STATUS_POLL_MS);
    const [, idleUse] = await observePhase(pid, () =>
      statusLatencies(api, token, `/report/${'0'.repeat(24)}/status`, idleCalls),
    );
    const idlePeaks = idleProbe.stop();
    const results: Row[] = [];
    const checks: { label: string; expected: number; lines: number; header: string; rowCount: number }[] = [];
    let statusPath = '';
    for (const [i, range] of ranges.entries()) {
      const label = i === 0 ? 'warm-up' : `${range.rows / 1000}k rows`;
      const rssBefore = processUsage(pid).rssMb;
      const mainThread = probeMainThreadMemory(eligo.httpUrl);
      const [made, use] = await observePhase(pid, () => generate(api, token, range));
      const mainPeaks = mainThread.stop();
      const {
        rows: [server],
      } = await db.query<{ seconds: number; attempts: number; row_count: string }>(
        `select extract(epoch from completed_at - created_at)::float8 as seconds, attempts, row_count
           from reports.reports where id = $1`,
        [made.id],
      );
      statusPath = made.statusPath;
      if (server!.attempts !== 1) process.stdout.write(`${label}: took ${server!.attempts} attempts\n`);
      const rssBeforeDownload = processUsage(pid).rssMb;
      const [got, downloadUse] = await observePhase(pid, () => download(eligo.httpUrl, token, made.id));
      const rssAfter = processUsage(pid).rssMb;
      checks.push({
        label,
        expected: range.rows + 1,
        lines: got.lines,
        header: got.header,
        rowCount: Number(server!.row_count),
      });

      const filter = {
        accountId: account.accountId,
        from: new Date(`${range.startDate}T00:00:00Z`),
        until: new Date(Date.parse(`${range.endDate}T00:00:00Z`) + 86_400_000),
      };
      const read = await cursorRead(database.url, filter, BATCH_ROWS);
      if (read.rows !== range.rows) throw new Error(`baseline read ${read.rows} rows, not ${range.rows}`);
      const copy = await copyAsCsv(database.url, filter);
      if (copy && copy.lines !== range.rows)
        throw new Error(`COPY wrote ${copy.lines} lines, not ${range.rows}`);

      results.push({
        label,
        rows: range.rows,
        'report s': round(made.seconds),
        'rows/s': Math.round(range.rows / made.seconds),
        'ns/row': Math.round((made.seconds * 1e9) / range.rows),
        'server s': round(server!.seconds),
        'peak RSS MB': rssBefore + use.peakRssMb,
        'over idle MB': rssBefore + use.peakRssMb - idleRssMb,
        'RSS after MB': rssAfter,
        'main heap MB': mainPeaks.heapUsedMb,
        'main heap committed MB': mainPeaks.heapTotalMb,
        'main external MB': mainPeaks.externalMb,
        'eligo CPU s': round(use.processCpuSeconds),
        'busy cores': round(use.machineCpuSeconds / use.seconds),
        'status p50 ms': round(median(made.statusMs.sort((a, b) => a - b)), 1),
        'status max ms': round(Math.max(...made.statusMs), 1),
        'download s': round(got.seconds),
        'download MB': round(got.bytes / 1024 / 1024, 1),
        'download peak RSS MB': rssBeforeDownload + downloadUse.peakRssMb,
        'cursor read s': round(read.seconds),
        'COPY csv s': copy ? round(copy.seconds) : 'no psql',
        'x read': round(made.seconds / read.seconds, 1),
      });
    }
    // The status call when eligo has nothing else to do, against the p50 and max while it generated; and the
    // floor of any such call on this host: a bare server asked with the same pattern.
    const idleStatus = await statusLatencies(api, token, statusPath, 20);
    const floorStatus = await bareServerLatencies(20);

    process.stdout.write(
      `\nVerification report, request -> COMPLETE (status polled every ${STATUS_POLL_MS} ms), ` +
        `then downloaded; ` +
        `baselines: the same SELECT through a cursor (${BATCH_ROWS} rows a batch) and COPY of it as CSV ` +
        `(eligo idle: RSS ${idleRssMb} MB, status call p50 ${median(idleStatus).toFixed(1)} ms; a bare ` +
        `node:http server asked the same way: p50 ${median(floorStatus).toFixed(1)} ms; ` +
        `${machineCores} cores)\n`,
    );
    console.table(results); // eslint-disable-line no-console
    process.stdout.write(
      `baseline, no report (${idleCalls} status calls, ${round(idleUse.seconds, 1)} s): peak RSS ` +
        `${idleRssMb + idleUse.peakRssMb} MB, ${idleUse.peakRssMb} MB over idle; ` +
        `main heap ${idlePeaks.heapUsedMb} MB (${idlePeaks.heapTotalMb} MB committed), main external ${idlePeaks.externalMb} MB\n`,
    );
    const measured = results.slice(1);
    const first = measured[0]!;
    const last = measured[measured.length - 1]!;
    const peakRss = Math.max(...measured.flatMap((r) => [r['peak RSS MB'], r['download peak RSS MB']]));
    const linearity = last['ns/row'] / first['ns/row'];
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    process.stdout.write(
      `${last.rows} rows in ${last['report s']} s (goal <= ${GOAL_SECONDS_AT_1M} s: ` +
        `${verdict(last['report s'] <= GOAL_SECONDS_AT_1M)}); eligo's peak RSS ${peakRss} MB, ` +
        `${peakRss - idleRssMb} MB above idle (${idleRssMb} MB) ` +
        `(goal < ${GOAL_PEAK_RSS_MB} MB: ${verdict(peakRss < GOAL_PEAK_RSS_MB)}; ` +
        `${first['over idle MB']} MB over idle at ${first.rows} rows, ${last['over idle MB']} MB at ` +
        `${last.rows}); ns/row ${last['ns/row']} at ` +
        `${last.rows} vs ${first['ns/row']} at ${first.rows} = x${linearity.toFixed(2)} (goal <= ` +
        `x${GOAL_LINEARITY}: ${verdict(linearity <= GOAL_LINEARITY)})\n`,
    );
    const slowestStatus = Math.max(...measured.map((r) => r['status p50 ms']));
    const overIdle = Math.max(...measured.map((r) => r['over idle MB']));
    process.stdout.write(
      `issue 23: ${last.rows} rows in ${last['report s']} s (goal <= ${ISSUE_23.seconds} s: ` +
        `${verdict(last['report s'] <= ISSUE_23.seconds)}); at most ${overIdle} MB over idle while ` +
        `generating (goal <= ${ISSUE_23.overIdleMb} MB: ${verdict(overIdle <= ISSUE_23.overIdleMb)}); ` +
        `status p50 while generating at most ${slowestStatus} ms (goal <= ${ISSUE_23.statusMs} ms: ` +
        `${verdict(slowestStatus <= ISSUE_23.statusMs)}; the bare server's p50 on this host: ` +
        `${median(floorStatus).toFixed(1)} ms)\n`,
    );

    // The run's only assertions: every report holds its rows, no more, no fewer.
    for (const c of checks) {
      expect({ label: c.label, lines: c.lines, rowCount: c.rowCount }).toEqual({
        label: c.label,
        lines: c.expected,
        rowCount: c.expected - 1,
      });
      expect(c.header.startsWith('verificationId,programId,programName,')).toBe(true);
    }
  } finally {
    await db.end().catch(() => undefined);
    await eligo.stop();
    if (process.env.ELIGO_BENCH_OUTPUT) writeFileSync(process.env.ELIGO_BENCH_OUTPUT, eligo.output());
    await database.drop();
  }
}, 1_800_000);
