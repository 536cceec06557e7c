import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verificationEventsV1 } from '@eligo/proto';
import { createDb, outboxWriter } from '@eligo/runtime';
import { freshDatabase, realServersEnv, startEligo, waitReady } from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { measureOpenLoop, report, summarize } from './measure';
import { machineBusySeconds, machineCores } from './process-usage';
import { benchNodeArgs } from './bench-node';

/**
 * Event-to-webhook latency: from the commit of a verification's success (its VerificationSucceeded event in
 * the verification schema's outbox, committed by the verification service's own outbox writer, as its
 * submission does) to a receiver getting the signed webhook: relay -> Kafka -> notifier consumer -> delivery
 * row -> dispatcher -> POST. RATE successes per second, open loop, over PROGRAMS programs with a webhook.
 * Eligo runs as `eligo start --target all` on the suite's Postgres and Kafka, in its own process; commits and
 * the receiver share this process's clock. The successes are committed directly rather than driven through
 * REST because this 2-core machine's whole REST flow saturates near 100 verifications/s (see the verification
 * benchmark), and what is measured here is the event path. A second phase commits at twice the rate.
 * Goals: p99 <= 500 ms at 200/s; the notifier keeps up with 400/s (every webhook, at the committed rate).
 * Run: `cd test && npm run bench -- notifier`.
 */
const RATE = 200;
const EVENTS = 3000;
const PROGRAMS = 20;

const enqueue = outboxWriter<keyof typeof verificationEventsV1>('verification');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

it(`event-to-webhook latency at ${RATE} and ${2 * RATE} verifications/s on Kafka`, async () => {
  const arrivals = new Map<string, bigint>();
  const webhookIds = new Set<string>();
  const receiver = createServer((req, res) => {
    void readBody(req).then((body) => {
      const at = process.hrtime.bigint();
      const { verificationId } = JSON.parse(body) as { verificationId: string };
      if (!arrivals.has(verificationId)) arrivals.set(verificationId, at);
      webhookIds.add(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const database = await freshDatabase();
  const adminToken = `eligo_admin_${randomBytes(16).toString('hex')}`;
  // ELIGO_BENCH_NODE_ARGS passes flags to eligo's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const eligo = await startEligo(
    ['start', '--target', 'all'],
    {
      ...realServersEnv(database.url),
      ELIGO_ADMIN_TOKEN: adminToken,
      ELIGO_ORGANIZATIONS_SEED: 'none',
      ELIGO_LOG_LEVEL: 'warn',
      ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    },
    undefined,
    benchNodeArgs(),
  );
  const db = createDb({ url: database.url, schema: 'verification', poolMax: 8, applicationName: 'bench' });
  try {
    await waitReady(eligo);
    const api = programsApi({ httpUrl: eligo.httpUrl, adminToken });
    const account = await api.createAccount('Bench Webhooks');
    const token = await api.createToken(account.accountId);
    const programs: string[] = [];
    for (let i = 0; i < PROGRAMS; i++) {
      const { programId } = await api.createProgram(account.accountId, { name: `Hooks ${i}` });
      const hook = await api.v2('POST', `/program/${programId}/webhook`, {
        token: token.token,
        body: { callbackUri },
      });
      if (hook.status !== 200) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
      programs.push(programId);
    }

    const commits = new Map<string, bigint>();
    const succeed = async (i: number) => {
      const verificationId = randomBytes(12).toString('hex');
      const event: verificationEventsV1.VerificationSucceeded = {
        verificationId,
        programId: programs[i % PROGRAMS]!,
        accountId: account.accountId,
        segment: 'student',
        subSegment: '',
        verificationMethod: 'INSTANT',
        organizationId: 0,
        testMode: true,
        occurredAt: new Date(),
      };
      await db.transaction((trx) =>
        enqueue(
          trx,
          'verification',
          'VerificationSucceeded',
          verificationEventsV1.VerificationSucceeded,
          verificationId,
          event,
        ),
      );
      commits.set(verificationId, process.hrtime.bigint());
    };

    // Warm-up: the notifier's consumer joins its group and the programs' webhooks are cached.
    await measureOpenLoop('warm-up', 100, 50, succeed);
    const deadline = Date.now() + 60_000;
    while (arrivals.size < commits.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    /**
     * EVENTS successes committed at `rate`/s; then waits for every webhook. The notifier keeps up when the
     * webhooks arrive at the rate they were committed (arrivals/s close to `rate`) with a bounded latency.
     */
    const phase = async (rate: number) => {
      commits.clear();
      arrivals.clear();
      webhookIds.clear();
      const busyBefore = machineBusySeconds();
      const started = process.hrtime.bigint();
      const committing = await measureOpenLoop(`commit of a success, ${rate}/s`, EVENTS, rate, succeed);
      const waitUntil = Date.now() + 120_000;
      while (arrivals.size < EVENTS && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const busyCores = (machineBusySeconds() - busyBefore) / seconds;
      const latencies = [...commits].flatMap(([id, committed]) => {
        const arrived = arrivals.get(id);
        return arrived === undefined ? [] : [Number(arrived - committed) / 1e6];
      });
      const delivered = summarize(
        `commit -> webhook received, ${rate}/s`,
        latencies.length,
        0,
        seconds,
        latencies,
      );
      const lastArrival = [...arrivals.values()].reduce((a, b) => (b > a ? b : a), started);
      const arrivalRate = arrivals.size / (Number(lastArrival - started) / 1e9);
      return { committing, delivered, busyCores, arrivalRate, count: arrivals.size, ids: webhookIds.size };
    };

    const atRate = await phase(RATE);
    const atTwice = await phase(2 * RATE);
    report(`${EVENTS} successes per phase over ${PROGRAMS} programs (${machineCores} cores)`, [
      atRate.committing,
      atRate.delivered,
      atTwice.committing,
      atTwice.delivered,
    ]);
    for (const [rate, p] of [
      [RATE, atRate],
      [2 * RATE, atTwice],
    ] as const)
      process.stdout.write(
        `${rate}/s: delivered ${p.count}/${EVENTS} (${p.ids} distinct webhook-ids) at ${p.arrivalRate.toFixed(0)}/s; ` +
          `p50 ${p.delivered.p50ms} ms, p99 ${p.delivered.p99ms} ms; machine ${p.busyCores.toFixed(2)} busy cores\n`,
      );
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    process.stdout.write(
      `goal p99 <= 500 ms at ${RATE}/s: ${met(atRate.count === EVENTS && atRate.delivered.p99ms <= 500)}; ` +
        `goal: the notifier keeps up with ${2 * RATE}/s (every webhook, arriving at >= 95% of the rate): ` +
        `${met(atTwice.count === EVENTS && atTwice.arrivalRate >= 0.95 * 2 * RATE)}\n`,
    );
  } finally {
    await db.destroy();
    await eligo.stop();
    await database.drop();
    receiver.close();
  }
}, 600_000);
