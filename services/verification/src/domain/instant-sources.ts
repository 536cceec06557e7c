import type { Subject } from './subject';

/**
 * Pluggable instant-match sources (issue 22): a customer eligibility list, a business's own HTTP endpoint.
 * Each answers one question about a valid, normalised subject of a live program: is this person eligible?
 * The runner below tries a program's sources in order, each behind its own deadline and circuit breaker,
 * inside the submission's time budget, so that a source that is down or slow never holds a submission up.
 */

/** The verificationMethod a source's match stands for (the built-in birth-date decision is INSTANT). */
export type SourceMethod = 'LIST' | 'HTTP_SOURCE';

/** What a source answers. `unavailable`: it could not say (down, slow, a bad answer); the next one is asked. */
export type SourceVerdict = { kind: 'match' } | { kind: 'noMatch' } | { kind: 'unavailable'; reason: string };

export interface SourceInput {
  /** Validated and normalised; '' for a field the form does not take. */
  subject: Subject;
  program: { programId: string; segment: string; subSegment: string; mode: 'test' | 'live' };
}

export interface InstantSource {
  readonly method: SourceMethod;
  /** `signal` aborts when the deadline passes: the source stops what it is doing (its answer is ignored). */
  check(input: SourceInput, signal: AbortSignal): Promise<SourceVerdict>;
}

/**
 * A circuit breaker around one source's calls (app/sources/breakers.ts: opossum through @eligo/runtime). It
 * throws without calling when open; a call that throws counts as a failure.
 */
export interface SourceBreaker {
  run<T>(call: () => Promise<T>): Promise<T>;
}

export interface GuardedSource {
  source: InstantSource;
  breaker: SourceBreaker;
}

export interface SourceRunOptions {
  /** The longest one source is waited for. */
  deadlineMs: number;
  /** Epoch ms when the submission's budget for sources ends: it bounds each deadline; past it none is asked. */
  budgetEndsAt: number;
  now(): number;
}

export interface SourceAttempt {
  method: SourceMethod;
  verdict: SourceVerdict;
}

export interface SourceRun {
  /** The source whose match decided; undefined when none matched. */
  decidedBy: SourceMethod | undefined;
  /** The sources actually called (instantMatchAttempts): not those the budget or an open breaker skipped. */
  attempts: number;
  /** Every source tried, in order, with its verdict (for logs and tests; no PII). */
  tried: SourceAttempt[];
}

/** Below this much left in the budget, a source is not asked at all (its answer could not arrive in time). */
export const MIN_SOURCE_TIME_MS = 50;

class Unavailable extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Tries the sources in order; the first match wins. A no match asks the next source too (another list or
 * system may know the person); an unavailable one, a timed-out one or one whose breaker is open falls through
 * to the next. An unavailable answer and a timeout count as the breaker's failures; a no match does not.
 */
export async function runInstantSources(
  sources: readonly GuardedSource[],
  input: SourceInput,
  options: SourceRunOptions,
): Promise<SourceRun> {
  const tried: SourceAttempt[] = [];
  let attempts = 0;
  for (const { source, breaker } of sources) {
    const left = options.budgetEndsAt - options.now();
    if (left < MIN_SOURCE_TIME_MS) break;
    const deadlineMs = Math.min(options.deadlineMs, left);
    let called = false;
    let verdict: SourceVerdict;
    try {
      verdict = await breaker.run(async () => {
        called = true;
        const answer = await withDeadline((signal) => source.check(input, signal), deadlineMs);
        if (answer.kind === 'unavailable') throw new Unavailable(answer.reason);
        return answer;
      });
    } catch (err) {
      verdict = { kind: 'unavailable', reason: reasonOf(err, called) };
    }
    if (called) attempts++;
    tried.push({ method: source.method, verdict });
    if (verdict.kind === 'match') return { decidedBy: source.method, attempts, tried };
  }
  return { decidedBy: undefined, attempts, tried };
}

function reasonOf(err: unknown, called: boolean): string {
  if (err instanceof Unavailable) return err.reason;
  if (!called) return 'circuit open';
  return err instanceof Error ? err.message : 'failed';
}

/** The call's answer, or Unavailable once `ms` have passed (the call's signal is then aborted). */
async function withDeadline<T>(call: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Unavailable(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
