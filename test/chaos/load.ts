/**
 * The clients: each flow starts a verification (Idempotency-Key K1) and submits the personal info (K2) through
 * REST v2, retrying a lost or failed answer with the same key, as the spec's clients do (11 s per attempt).
 */
export interface FlowRecord {
  index: number;
  trackingId: string;
  startKey: string;
  submitKey: string;
  /** Every verification id an answer to K1 named (more than one is a duplicate verification). */
  startIds: Set<string>;
  verificationId?: string;
  rewardCode?: string;
  outcome: 'succeeded' | 'failed' | 'pending';
  /** Why a failed flow failed: the last answer or error. */
  failure?: string;
  failedAt?: number;
  startedAt: number;
  endedAt?: number;
  attempts: number;
}

export interface LoadOptions {
  gatewayUrl: string;
  programId: string;
  runId: string;
  count: number;
  concurrency: number;
  /** Per attempt (the spec's client budget: 11 s). */
  attemptTimeoutMs: number;
  /** A flow that has not succeeded this long after it began is a client-visible failure. */
  flowDeadlineMs: number;
  /** No flow starts after this time (the run's duration cap); those not started stay `pending`. */
  stopAt: number;
  /** Called after each flow ends (progress). */
  onFlowDone?: (flow: FlowRecord, done: number) => void;
}

export interface LoadResult {
  flows: FlowRecord[];
  /** Attempts answered or failed with something a client retries, by cause (e.g. `503`, `409`, `network`). */
  retriedBy: Record<string, number>;
  startedAt: number;
  endedAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Permanent extends Error {}

/** The fields of a verification response that the flows read. */
interface VerificationBody {
  verificationId?: string;
  currentStep?: string;
  rewardCode?: string;
}

interface Answer {
  status: number;
  body: VerificationBody | undefined;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const retriedBy: Record<string, number> = {};
  const count = (cause: string) => (retriedBy[cause] = (retriedBy[cause] ?? 0) + 1);
  const flows: FlowRecord[] = Array.from({ length: options.count }, (_, index) => ({
    index,
    trackingId: `chaos-${options.runId}-${index}`,
    startKey: `chaos-${options.runId}-${index}-start`,
    submitKey: `chaos-${options.runId}-${index}-info`,
    startIds: new Set<string>(),
    outcome: 'pending' as const,
    startedAt: 0,
    attempts: 0,
  }));

  /** One POST with retries until a non-retryable answer or the flow's deadline. */
  async function post(flow: FlowRecord, path: string, key: string, body: unknown): Promise<Answer> {
    const deadline = flow.startedAt + options.flowDeadlineMs;
    let last = '';
    for (let attempt = 0; ; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`gave up after the flow deadline; last: ${last}`);
      flow.attempts++;
      let retryAfterMs = 0;
      try {
        const res = await fetch(`${options.gatewayUrl}/rest/v2${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(Math.min(options.attemptTimeoutMs, left)),
        });
        const text = await res.text();
        let parsed: VerificationBody | undefined;
        try {
          parsed = text ? (JSON.parse(text) as VerificationBody) : undefined;
        } catch {
          parsed = undefined;
        }
        if (res.status === 200) return { status: res.status, body: parsed };
        last = `${res.status} ${text.slice(0, 300)}`;
        if (res.status < 500 && res.status !== 409 && res.status !== 429) throw new Permanent(last);
        count(String(res.status));
        retryAfterMs = Number(res.headers.get('retry-after') ?? 0) * 1000 || 0;
      } catch (err) {
        if (err instanceof Permanent) throw err;
        const e = err as Error & { cause?: { code?: string } };
        const cause =
          e.name === 'TimeoutError' || e.name === 'AbortError' ? 'timeout' : (e.cause?.code ?? 'network');
        last = `${cause}: ${e.message}`;
        count(cause);
      }
      const backoff = Math.min(200 * 2 ** attempt, 3000) * (0.5 + Math.random());
      await sleep(Math.max(backoff, retryAfterMs));
    }
  }

  async function runFlow(flow: FlowRecord): Promise<void> {
    flow.startedAt = Date.now();
    try {
      const started = await post(flow, '/verification', flow.startKey, {
        programId: options.programId,
        trackingId: flow.trackingId,
      });
      const id = started.body?.verificationId;
      if (!id) throw new Error(`start answered no verificationId: ${JSON.stringify(started.body)}`);
      flow.startIds.add(id);
      flow.verificationId = id;
      if (started.body?.currentStep !== 'collectAgePersonalInfo')
        throw new Error(`start answered step ${started.body?.currentStep}`);
      const done = await post(flow, `/verification/${id}/step/collectAgePersonalInfo`, flow.submitKey, {
        firstName: 'Chaos',
        lastName: `Monkey${flow.index}`,
        birthDate: '1990-05-17',
        email: `chaos-${options.runId}-${flow.index}@example.com`,
        postalCode: '94105',
        country: 'US',
      });
      if (done.body?.currentStep !== 'success' || typeof done.body.rewardCode !== 'string')
        throw new Error(`submission answered ${JSON.stringify(done.body)}`);
      flow.rewardCode = done.body.rewardCode;
      flow.outcome = 'succeeded';
    } catch (err) {
      flow.outcome = 'failed';
      flow.failure = (err as Error).message;
      flow.failedAt = Date.now();
    } finally {
      flow.endedAt = Date.now();
    }
  }

  const startedAt = Date.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < flows.length && Date.now() < options.stopAt) {
        const flow = flows[next++]!;
        await runFlow(flow);
        options.onFlowDone?.(flow, ++done);
      }
    }),
  );
  return { flows, retriedBy, startedAt, endedAt: Date.now() };
}

/**
 * Sends every finished flow's start again with its Idempotency-Key K1: the answer must be the stored one
 * (`Idempotent-Replayed: true`) and name the same verification. Returns the flows whose replay named another
 * verification (a duplicate) and those that were not replayed (a new run of the request, or an error).
 */
export async function replayStarts(
  options: Pick<LoadOptions, 'gatewayUrl' | 'programId' | 'concurrency' | 'attemptTimeoutMs'>,
  flows: FlowRecord[],
): Promise<{ checked: number; otherId: string[]; notReplayed: string[] }> {
  const otherId: string[] = [];
  const notReplayed: string[] = [];
  let next = 0;
  let checked = 0;
  const todo = flows.filter((f) => f.verificationId !== undefined);
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < todo.length) {
        const flow = todo[next++]!;
        for (let attempt = 0; attempt < 5; attempt++) {
          try {
            const res = await fetch(`${options.gatewayUrl}/rest/v2/verification`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'idempotency-key': flow.startKey },
              body: JSON.stringify({ programId: options.programId, trackingId: flow.trackingId }),
              signal: AbortSignal.timeout(options.attemptTimeoutMs),
            });
            const body = (await res.json().catch(() => undefined)) as { verificationId?: string } | undefined;
            if (res.status >= 500 || res.status === 409) {
              await sleep(500);
              continue;
            }
            checked++;
            if (body?.verificationId) flow.startIds.add(body.verificationId);
            if (body?.verificationId && body.verificationId !== flow.verificationId)
              otherId.push(flow.trackingId);
            if (res.headers.get('idempotent-replayed') !== 'true')
              notReplayed.push(`${flow.trackingId}: ${res.status}`);
            break;
          } catch {
            await sleep(500);
          }
        }
      }
    }),
  );
  return { checked, otherId, notReplayed };
}
