import { createMetricsRegistry, NO_ALLOWED_CIDRS } from '@eligo/runtime';
import { runInstantSources, type SourceInput } from '../../domain/instant-sources';
import type { Program } from '../../domain/program';
import { emptySubject } from '../../domain/subject';
import { createInstantSources } from './sources';

const program = (overrides: Partial<Program>): Program =>
  ({
    programId: 'c'.repeat(24),
    segment: 'military',
    mode: 'live',
    instantSources: [],
    httpSource: undefined,
    ...overrides,
  }) as Program;

const input: SourceInput = {
  subject: { ...emptySubject(), email: 'jane@example.com' },
  program: { programId: 'c'.repeat(24), segment: 'military', subSegment: 'veteran', mode: 'live' },
};

describe('the instant sources of a program', () => {
  const metrics = createMetricsRegistry({ defaultMetrics: false });
  const asked: string[] = [];
  const sources = createInstantSources({
    deadlineMs: 500,
    budgetMs: 5000,
    allowCidrs: NO_ALLOWED_CIDRS,
    matchList: (programId) => {
      asked.push(programId);
      return Promise.resolve(true);
    },
    metrics,
  });
  afterAll(() => sources.shutdown());

  it("are the program's, in its order, for the sub-segment only", () => {
    const p = program({
      instantSources: [
        { type: 'http', subSegments: [] },
        { type: 'list', subSegments: ['veteran'] },
      ],
      httpSource: { url: 'https://hr.example/check', secret: `whsec_${'A'.repeat(44)}` },
    });
    expect(sources.forProgram(p, 'veteran').map((g) => g.source.method)).toEqual(['HTTP_SOURCE', 'LIST']);
    expect(sources.forProgram(p, 'activeDuty').map((g) => g.source.method)).toEqual(['HTTP_SOURCE']);
  });

  it('leave out an HTTP source whose endpoint or secret is missing, and a list without a matcher', () => {
    const p = program({ instantSources: [{ type: 'http', subSegments: [] }] });
    expect(sources.forProgram(p, '')).toEqual([]);
    const none = createInstantSources({ deadlineMs: 1, budgetMs: 1, allowCidrs: NO_ALLOWED_CIDRS });
    expect(none.forProgram(program({ instantSources: [{ type: 'list', subSegments: [] }] }), '')).toEqual([]);
    none.shutdown();
  });

  it('ask the list matcher with the program id', async () => {
    const p = program({ instantSources: [{ type: 'list', subSegments: [] }] });
    const run = await runInstantSources(sources.forProgram(p, ''), input, {
      deadlineMs: 500,
      budgetEndsAt: Date.now() + 1000,
      now: () => Date.now(),
    });
    expect(run.decidedBy).toBe('LIST');
    expect(asked).toEqual(['c'.repeat(24)]);
  });

  it("show each breaker's state as a metric, open (2) once the source keeps failing", async () => {
    // A blocked address: unavailable at once, each time a breaker failure.
    const p = program({
      programId: 'd'.repeat(24),
      instantSources: [{ type: 'http', subSegments: [] }],
      httpSource: { url: 'http://127.0.0.1:9/check', secret: `whsec_${'A'.repeat(44)}` },
    });
    const options = { deadlineMs: 500, budgetEndsAt: Date.now() + 5000, now: () => Date.now() };
    for (let i = 0; i < 6; i++) await runInstantSources(sources.forProgram(p, ''), input, options);
    const text = await metrics.metrics();
    expect(text).toContain(
      `eligo_instant_source_breaker_state{module="verification",source="HTTP_SOURCE",program="${'d'.repeat(24)}"} 2`,
    );
    expect(text).toContain(
      'eligo_instant_source_breaker_state{module="verification",source="LIST",program=""} 0',
    );
  });
});
