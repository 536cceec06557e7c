import { afterAttempt, type AttemptFacts } from './endpoint-policy';

const now = new Date('2026-03-01T12:00:00.000Z');
const minutes = (n: number) => n * 60_000;
const ago = (ms: number) => new Date(now.getTime() - ms);
const schedule = [0, 5_000, minutes(5), minutes(30)];

/** No jitter: random() = 0.5 keeps every delay as planned. */
const facts = (overrides: Partial<AttemptFacts>): AttemptFacts => ({
  outcome: 'failed',
  attemptsMade: 1,
  now,
  schedule,
  endpoint: { status: 'active', failingSince: null },
  disableAfterMs: minutes(60 * 24 * 5),
  random: () => 0.5,
  ...overrides,
});

describe('afterAttempt', () => {
  it('delivers, and heals an endpoint that was failing', () => {
    expect(afterAttempt(facts({ outcome: 'delivered' }))).toEqual({
      delivery: { status: 'delivered' },
      endpoint: { kind: 'unchanged' },
    });
    const failing = { status: 'active' as const, failingSince: ago(minutes(10)) };
    expect(afterAttempt(facts({ outcome: 'delivered', endpoint: failing })).endpoint).toEqual({
      kind: 'recovered',
    });
  });

  it('retries on the schedule and starts the failure streak at the first failure', () => {
    expect(afterAttempt(facts({}))).toEqual({
      delivery: { status: 'pending', nextAttemptAt: new Date(now.getTime() + 5_000) },
      endpoint: { kind: 'failing', since: now },
    });
    const failing = { status: 'active' as const, failingSince: ago(minutes(1)) };
    expect(afterAttempt(facts({ attemptsMade: 2, endpoint: failing }))).toEqual({
      delivery: { status: 'pending', nextAttemptAt: new Date(now.getTime() + minutes(5)) },
      endpoint: { kind: 'unchanged' },
    });
  });

  it('treats a refused attempt (blocked address, http for a live program) like a failure', () => {
    expect(afterAttempt(facts({ outcome: 'refused' })).delivery.status).toBe('pending');
  });

  it('waits at least as long as Retry-After asks', () => {
    const next = afterAttempt(facts({ retryAfterMs: minutes(2) })).delivery;
    expect(next).toEqual({ status: 'pending', nextAttemptAt: new Date(now.getTime() + minutes(2)) });
  });

  it('fails the delivery once the schedule is used up', () => {
    expect(afterAttempt(facts({ attemptsMade: schedule.length })).delivery).toEqual({ status: 'failed' });
  });

  it('disables the endpoint at once on 410', () => {
    expect(afterAttempt(facts({ outcome: 'gone' }))).toEqual({
      delivery: { status: 'failed' },
      endpoint: { kind: 'disable', reason: 'GONE' },
    });
  });

  it('disables the endpoint after failing for the whole period, not before', () => {
    const period = minutes(60);
    const almost = { status: 'active' as const, failingSince: ago(period - 1) };
    expect(afterAttempt(facts({ endpoint: almost, disableAfterMs: period })).endpoint).toEqual({
      kind: 'unchanged',
    });
    const over = { status: 'active' as const, failingSince: ago(period) };
    expect(afterAttempt(facts({ endpoint: over, disableAfterMs: period }))).toEqual({
      delivery: { status: 'failed' },
      endpoint: { kind: 'disable', reason: 'PERSISTENT_FAILURE' },
    });
  });

  it('ends a failed attempt to an endpoint disabled meanwhile, but records a success as delivered', () => {
    const disabled = { status: 'disabled' as const, failingSince: ago(minutes(5)) };
    expect(afterAttempt(facts({ endpoint: disabled }))).toEqual({
      delivery: { status: 'failed' },
      endpoint: { kind: 'unchanged' },
    });
    expect(afterAttempt(facts({ outcome: 'delivered', endpoint: disabled }))).toEqual({
      delivery: { status: 'delivered' },
      endpoint: { kind: 'unchanged' },
    });
  });
});
