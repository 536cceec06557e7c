import pg from 'pg';
import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { call, programsApi } from '../support/programs-api';
import { organizationsApi } from '../support/organizations-api';
import { importUniversity, janeDoe } from '../support/verification-api';
import { measure, measureOpenLoop, report, type Figures } from './measure';
import { startBaseline } from './verification-baseline';

/**
 * The test-mode verification flow (POST /verification, then the student's personal info, which succeeds at
 * once) through the gateway with every module in process (`--target all`), beside a minimal Express + pg
 * server doing the same inserts and updates (verification-baseline.ts), measured in the same run on the same
 * Postgres. Each is measured at saturation (closed loop), then at half of its own saturation throughput in
 * an open loop (flows started on a timer). Latencies are of the whole flow (both requests), the stricter
 * reading of the goal. Goal: Eligo >= 50% of the baseline's throughput, p99 <= 50 ms at half saturation.
 * A third row is live mode (issue 22): a member program whose eligibility list holds every person of the
 * phase, so that each submission is decided by the list's one indexed lookup (verificationMethod LIST).
 * A fourth row is the test-mode flow again on a second Eligo whose modules call each other over loopback gRPC
 * sockets (ELIGO_GRPC_IN_PROCESS=false) rather than in process: what the in-process transport saves.
 * The load generator shares the process (and the machine's cores) with both servers, as in the other benches.
 * Run: `cd test && npm run bench -- verification`.
 */
const FLOWS = 3000;
const WARM_UP = 300;
const CONCURRENCY = 32;
const OPEN_LOOP_SECONDS = 20;
const STEP = 'collectStudentPersonalInfo';
const LIVE_STEP = 'collectMemberPersonalInfo';
/** Members on the live program's list: more than any phase submits (warm-up, saturation, open loop). */
const LISTED = 40_000;

interface Errors {
  count: number;
  first?: string;
}

it('test-mode verification flow: Eligo (--target all) against a minimal Express + pg baseline', async () => {
  const eligo = await startAllInProcess({ ELIGO_ORGANIZATIONS_SEED: 'none' });
  // The baseline gets as many connections as the verification service's pool (no override is set here).
  const baseline = await startBaseline(eligo.databaseUrl, eligo.config.database.poolMax);
  const db = new pg.Pool({ connectionString: eligo.databaseUrl, max: 1 });
  try {
    const { programId, subject, accountId } = await testModeTarget(eligo);
    const live = await liveListProgram(programsApi(eligo), accountId);

    /**
     * Every timed phase starts with Eligo's outbox published: the relay's backlog from the phase before
     * (thousands of events to Kafka) is that phase's cost, not the next one's.
     */
    const settle = async (pool: pg.Pool = db) => {
      for (let waited = 0; waited < 60_000; waited += 250) {
        const { rows } = await pool.query(
          'select count(*)::int as n from verification.outbox where published_at is null',
        );
        if (rows[0].n === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      process.stdout.write('warning: the verification outbox did not drain within 60 s\n');
    };

    const measureFlows = async (
      name: string,
      base: string,
      errors: Errors,
      target: Target = { programId, step: STEP, subject },
      pool: pg.Pool = db,
    ): Promise<[Figures, Figures]> => {
      const run = (i: number) => flow(base, target, i, errors);
      await measure('warm-up', WARM_UP, CONCURRENCY, run); // untimed: JIT, pools, caches
      await settle(pool);
      const saturated = await measure(`${name}, ${CONCURRENCY} clients`, FLOWS, CONCURRENCY, run);
      const rate = Math.max(1, Math.round(saturated.perSecond / 2));
      await settle(pool);
      const half = await measureOpenLoop(
        `${name}, open loop ${rate} flows/s`,
        Math.max(500, rate * OPEN_LOOP_SECONDS),
        rate,
        run,
      );
      return [saturated, half];
    };

    // The baseline first, while Eligo is idle; Eligo's own phases leave work (outbox relay) behind them.
    const baselineErrors: Errors = { count: 0 };
    const [base, baseHalf] = await measureFlows('baseline Express + pg', baseline.url, baselineErrors);
    const eligoErrors: Errors = { count: 0 };
    const [own, ownHalf] = await measureFlows('Eligo REST v2', `${eligo.httpUrl}/rest/v2`, eligoErrors);
    await settle();
    const liveErrors: Errors = { count: 0 };
    const [liveOwn, liveHalf] = await measureFlows(
      'Eligo REST v2, live, list match',
      `${eligo.httpUrl}/rest/v2`,
      liveErrors,
      live,
    );

    // The same test-mode flow with the modules calling each other over loopback gRPC sockets
    // (ELIGO_GRPC_IN_PROCESS=false, what every call was before the in-process transport), in a second Eligo
    // started once the first one is idle.
    const loopbackErrors: Errors = { count: 0 };
    const [loopback, loopbackHalf] = await withEligo(
      { ELIGO_GRPC_IN_PROCESS: 'false' },
      async (other, pool) =>
        measureFlows(
          'Eligo REST v2, gRPC over loopback',
          `${other.httpUrl}/rest/v2`,
          loopbackErrors,
          await testModeTarget(other),
          pool,
        ),
    );

    report('verification flow (2 requests per flow; perSecond = flows/s; ms per flow)', [
      base,
      baseHalf,
      own,
      ownHalf,
      liveOwn,
      liveHalf,
      loopback,
      loopbackHalf,
    ]);
    const ratio = own.perSecond / base.perSecond;
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    process.stdout.write(
      `Eligo/baseline throughput: ${ratio.toFixed(2)} (goal >= 0.50: ${verdict(ratio >= 0.5)})\n` +
        `Eligo p99 at half saturation (${ownHalf.label}): ${ownHalf.p99ms} ms ` +
        `(goal <= 50 ms: ${verdict(ownHalf.p99ms <= 50)})\n` +
        `Eligo live with a list match / baseline throughput: ${(liveOwn.perSecond / base.perSecond).toFixed(2)}\n` +
        `Eligo with gRPC over loopback / baseline throughput: ${(loopback.perSecond / base.perSecond).toFixed(2)} ` +
        `(in process / over loopback: ${(own.perSecond / loopback.perSecond).toFixed(2)})\n`,
    );
    // Figures never fail a benchmark; a flow that did not succeed does (the figures would measure errors).
    for (const [name, errors] of [
      ['baseline', baselineErrors],
      ['Eligo', eligoErrors],
      ['Eligo live', liveErrors],
      ['Eligo over loopback', loopbackErrors],
    ] as const)
      if (errors.count > 0) throw new Error(`${name}: ${errors.count} failed flows, first: ${errors.first}`);
  } finally {
    await db.end();
    await baseline.close();
    await eligo.stop();
  }
}, 900_000);

/** A tenant with a test-mode student program and a university to name, on `eligo`. */
async function testModeTarget(eligo: ServiceUnderTest): Promise<Target & { accountId: string }> {
  const api = programsApi(eligo);
  const { account } = await api.tenant('Bench Co');
  // New programs start in test mode, where any firstName but the triggers succeeds at once.
  const { programId } = await api.createProgram(account.accountId, {
    offerType: 'staticCode',
    rewardCode: 'BENCH-10',
  });
  const organization = await importUniversity(api, programId);
  return {
    accountId: account.accountId,
    programId,
    step: STEP,
    // A different person per flow, as real traffic would be (one person would only differ by its hashes).
    subject: (i: number) => ({ ...janeDoe, email: `student-${i}@example.com`, organization }),
  };
}

/** Runs `fn` against a second Eligo (with `env` added), and stops it afterwards. */
async function withEligo<T>(
  env: Record<string, string>,
  fn: (eligo: ServiceUnderTest, pool: pg.Pool) => Promise<T>,
): Promise<T> {
  const eligo = await startAllInProcess({ ELIGO_ORGANIZATIONS_SEED: 'none', ...env });
  const pool = new pg.Pool({ connectionString: eligo.databaseUrl, max: 1 });
  try {
    return await fn(eligo, pool);
  } finally {
    await pool.end();
    await eligo.stop();
  }
}

/** A program to verify against: its collect step and the subject of flow i. */
interface Target {
  programId: string;
  step: string;
  subject(i: number): object;
}

/**
 * A live member program whose only instant-match source is its eligibility list, holding member-<i>@ for
 * every flow of the phase (uploaded as CSV through the admin API), and a membership organization.
 */
async function liveListProgram(api: ReturnType<typeof programsApi>, accountId: string): Promise<Target> {
  const { programId } = await api.createProgram(accountId, {
    segment: 'member',
    mode: 'live',
    offerType: 'staticCode',
    rewardCode: 'LIVE-10',
    instantMatch: { sources: [{ type: 'list' }] },
  });
  const rows = Array.from({ length: LISTED }, (_, i) => `member-${i}@example.com`);
  const listed = await api.admin('PUT', `/programs/${programId}/eligibility-list`, {
    raw: `email\n${rows.join('\n')}\n`,
    contentType: 'text/csv',
  });
  if (listed.status !== 200) throw new Error(`list upload: ${listed.status} ${JSON.stringify(listed.body)}`);
  const orgs = organizationsApi(api);
  const name = 'Bench Members Club';
  const imported = await orgs.importCsv([
    { externalId: 'bench-club', name, type: 'MEMBERSHIP', country: 'US', domains: [] },
  ]);
  if (imported.status !== 200) throw new Error(`import: ${imported.status}`);
  const organization = { id: await orgs.idOf(programId, name), name };
  return {
    programId,
    step: LIVE_STEP,
    subject: (i) => ({
      firstName: 'Jane',
      lastName: 'Doe',
      email: `member-${i % LISTED}@example.com`,
      organization,
    }),
  };
}

/**
 * One flow. A failure is counted, not thrown, so that a phase runs to the end and the figures still print;
 * the test fails on the count afterwards.
 */
async function flow(base: string, target: Target, i: number, errors: Errors): Promise<void> {
  try {
    const started = await call(base, 'POST', '/verification', { body: { programId: target.programId } });
    ok(started.status, 'start', started.body);
    const id = started.body.verificationId;
    const done = await call(base, 'POST', `/verification/${id}/step/${target.step}`, {
      body: target.subject(i),
    });
    ok(done.status, 'submit', done.body);
    if (done.body.currentStep !== 'success') throw new Error(`submit ended on ${done.body.currentStep}`);
  } catch (err) {
    errors.count++;
    errors.first ??= err instanceof Error ? err.message : String(err);
  }
}

function ok(status: number, what: string, body: unknown): void {
  if (status < 200 || status > 299) throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
}
