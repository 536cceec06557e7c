import { CallBreaker } from '@eligo/runtime';
import {
  runInstantSources,
  type GuardedSource,
  type InstantSource,
  type SourceInput,
  type SourceMethod,
  type SourceVerdict,
} from './instant-sources';
import { emptySubject } from './subject';

const input: SourceInput = {
  subject: { ...emptySubject(), firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' },
  program: { programId: 'a'.repeat(24), segment: 'employee', subSegment: '', mode: 'live' },
};

/** A breaker that never opens. */
const open = { run: <T>(call: () => Promise<T>) => call() };

function source(
  method: SourceMethod,
  answer: () => Promise<SourceVerdict>,
): InstantSource & { calls: number } {
  const s = {
    method,
    calls: 0,
    check: () => {
      s.calls++;
      return answer();
    },
  };
  return s;
}

const answering = (verdict: SourceVerdict) => () => Promise.resolve(verdict);
const hanging = () => new Promise<SourceVerdict>(() => undefined);
const guarded = (...sources: InstantSource[]): GuardedSource[] =>
  sources.map((s) => ({ source: s, breaker: open }));
const options = (deadlineMs: number, budgetMs = 10_000) => ({
  deadlineMs,
  budgetEndsAt: Date.now() + budgetMs,
  now: () => Date.now(),
});

describe('runInstantSources', () => {
  it('asks the sources in order and stops at the first match', async () => {
    const list = source('LIST', answering({ kind: 'noMatch' }));
    const http = source('HTTP_SOURCE', answering({ kind: 'match' }));
    const after = source('LIST', answering({ kind: 'match' }));
    const run = await runInstantSources(guarded(list, http, after), input, options(1000));
    expect(run.decidedBy).toBe('HTTP_SOURCE');
    expect(run.attempts).toBe(2);
    expect(run.tried.map((t) => [t.method, t.verdict.kind])).toEqual([
      ['LIST', 'noMatch'],
      ['HTTP_SOURCE', 'match'],
    ]);
    expect(after.calls).toBe(0);
  });

  it('falls through an unavailable source, and answers no decision when none matches', async () => {
    const down = source('HTTP_SOURCE', answering({ kind: 'unavailable', reason: 'bad signature' }));
    const list = source('LIST', answering({ kind: 'noMatch' }));
    const run = await runInstantSources(guarded(down, list), input, options(1000));
    expect(run).toEqual({
      decidedBy: undefined,
      attempts: 2,
      tried: [
        { method: 'HTTP_SOURCE', verdict: { kind: 'unavailable', reason: 'bad signature' } },
        { method: 'LIST', verdict: { kind: 'noMatch' } },
      ],
    });
  });

  it('gives up on a source past its deadline (aborting it) and asks the next one', async () => {
    let aborted = false;
    const slow: InstantSource = {
      method: 'HTTP_SOURCE',
      check: (_input, signal) => new Promise(() => signal.addEventListener('abort', () => (aborted = true))),
    };
    const list = source('LIST', answering({ kind: 'match' }));
    const t0 = Date.now();
    const run = await runInstantSources(guarded(slow, list), input, options(200));
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(aborted).toBe(true);
    expect(run.decidedBy).toBe('LIST');
    expect(run.tried[0]).toEqual({
      method: 'HTTP_SOURCE',
      verdict: { kind: 'unavailable', reason: 'no answer within 200 ms' },
    });
  });

  it('bounds each deadline by what is left of the budget, and asks nothing once it is spent', async () => {
    const first = source('HTTP_SOURCE', hanging);
    const second = source('LIST', answering({ kind: 'match' }));
    const t0 = Date.now();
    // A 5 s deadline, but only 300 ms of budget: the first is cut at the budget, the second never asked.
    const run = await runInstantSources(guarded(first, second), input, options(5000, 300));
    const ms = Date.now() - t0;
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(1500);
    expect(run).toMatchObject({ decidedBy: undefined, attempts: 1 });
    expect(second.calls).toBe(0);
  });

  it('skips a source whose breaker is open without calling it (not an attempt)', async () => {
    const breaker = new CallBreaker(
      'test-source',
      { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000, isFailure: () => true },
      () => undefined,
    );
    const flaky = source('HTTP_SOURCE', answering({ kind: 'unavailable', reason: 'answered 500' }));
    const sources: GuardedSource[] = [{ source: flaky, breaker }];
    for (let i = 0; i < 2; i++) await runInstantSources(sources, input, options(1000));
    expect(flaky.calls).toBe(2);
    expect(breaker.state).toBe('open');

    const run = await runInstantSources(sources, input, options(1000));
    expect(flaky.calls).toBe(2);
    expect(run).toEqual({
      decidedBy: undefined,
      attempts: 0,
      tried: [{ method: 'HTTP_SOURCE', verdict: { kind: 'unavailable', reason: 'circuit open' } }],
    });
    breaker.shutdown();
  });

  it('does not count a no match as a breaker failure', async () => {
    const breaker = new CallBreaker(
      'test-no-match',
      { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000, isFailure: () => true },
      () => undefined,
    );
    const no = source('LIST', answering({ kind: 'noMatch' }));
    for (let i = 0; i < 5; i++) await runInstantSources([{ source: no, breaker }], input, options(1000));
    expect(breaker.state).toBe('closed');
    expect(no.calls).toBe(5);
    breaker.shutdown();
  });
});
