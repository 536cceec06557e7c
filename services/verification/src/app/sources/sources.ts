import {
  CallBreaker,
  moduleMetrics,
  type AllowCidrs,
  type BreakerState,
  type Logger,
  type MetricsRegistry,
} from '@eligo/runtime';
import type { GuardedSource, InstantSource, SourceMethod, SourceRun } from '../../domain/instant-sources';
import type { Program } from '../../domain/program';
import type { Subject } from '../../domain/subject';
import { httpSource } from './http-source';

/**
 * The customer list matcher (helper L's app/eligibility-list-match.ts matchEligibilityList, bound to the app
 * context): true when a row of the program's current list matches the subject.
 */
export type ListMatcher = (programId: string, subject: Subject) => Promise<boolean>;

export interface InstantSourcesOptions {
  /** The longest one source is waited for (ELIGO_VERIFICATION_INSTANT_SOURCE_DEADLINE_MS). */
  deadlineMs: number;
  /**
   * From the submission's arrival, the time within which sources may still be asked
   * (ELIGO_VERIFICATION_INSTANT_SOURCES_BUDGET_MS): what is left of it bounds each deadline.
   */
  budgetMs: number;
  /** ELIGO_WEBHOOK_ALLOW_CIDRS: the webhooks' address rule applies to HTTP sources. */
  allowCidrs: AllowCidrs;
  /** Unset: the LIST source is not available (a program naming it gets no list answer). */
  matchList?: ListMatcher;
  metrics?: MetricsRegistry;
  logger?: Logger;
}

/** The sources of the flow: the program's guarded sources, the timing, and the log of a run. */
export interface InstantSources {
  deadlineMs: number;
  budgetMs: number;
  /** The program's sources for the sub-segment, in its order, each with its breaker. */
  forProgram(program: Program, subSegment: string): GuardedSource[];
  /** One line per run that asked anything: which sources answered what (no PII: methods and reasons). */
  logRun(program: Program, run: SourceRun): void;
  /** Stops the breakers' timers (module stop). */
  shutdown(): void;
}

/** opossum's settings for a source: half of at least 5 calls failing within 30 s opens it for 30 s. */
const BREAKER = {
  volumeThreshold: 5,
  errorThresholdPercentage: 50,
  resetTimeoutMs: 30_000,
  rollingWindowMs: 30_000,
};
const STATE_VALUE: Record<BreakerState, number> = { closed: 0, halfOpen: 1, open: 2, disabled: 0 };

export function createInstantSources(options: InstantSourcesOptions): InstantSources {
  const metrics = options.metrics && moduleMetrics(options.metrics, 'verification');
  const breakerState = metrics?.gauge<'source' | 'program'>({
    name: 'eligo_instant_source_breaker_state',
    help: 'Circuit breaker of an instant-match source: 0 closed, 1 half-open, 2 open (program empty for LIST).',
    labelNames: ['source', 'program'],
  });
  const breakers = new Map<string, CallBreaker>();
  // The list is our own database: one breaker. Each program's HTTP endpoint is another system: one each.
  const breakerFor = (method: SourceMethod, programId: string): CallBreaker => {
    const program = method === 'LIST' ? '' : programId;
    const key = `${method}:${program}`;
    let breaker = breakers.get(key);
    if (!breaker) {
      const labels = { source: method, program };
      breakerState?.set(labels, 0);
      breaker = new CallBreaker(`instant source ${key}`, { ...BREAKER, isFailure: () => true }, (state) => {
        breakerState?.set(labels, STATE_VALUE[state]);
        options.logger?.warn({ source: method, programId: program, state }, 'instant source circuit breaker');
      });
      breakers.set(key, breaker);
    }
    return breaker;
  };
  const sourceOf = (program: Program, type: 'list' | 'http'): InstantSource | undefined => {
    if (type === 'http')
      return program.httpSource && httpSource(program.httpSource, { allowCidrs: options.allowCidrs });
    const match = options.matchList;
    if (!match) return undefined;
    return {
      method: 'LIST',
      check: async (input) =>
        (await match(input.program.programId, input.subject)) ? { kind: 'match' } : { kind: 'noMatch' },
    };
  };
  return {
    deadlineMs: options.deadlineMs,
    budgetMs: options.budgetMs,
    forProgram(program, subSegment) {
      const guarded: GuardedSource[] = [];
      for (const setting of program.instantSources) {
        if (setting.subSegments.length > 0 && !setting.subSegments.includes(subSegment)) continue;
        const source = sourceOf(program, setting.type);
        if (source) guarded.push({ source, breaker: breakerFor(source.method, program.programId) });
      }
      return guarded;
    },
    logRun(program, run) {
      if (run.tried.length === 0) return;
      options.logger?.info(
        {
          programId: program.programId,
          decidedBy: run.decidedBy ?? null,
          tried: run.tried.map((t) => ({
            source: t.method,
            verdict: t.verdict.kind,
            ...(t.verdict.kind === 'unavailable' ? { reason: t.verdict.reason } : {}),
          })),
        },
        'instant-match sources',
      );
    },
    shutdown() {
      for (const breaker of breakers.values()) breaker.shutdown();
      breakers.clear();
    },
  };
}
