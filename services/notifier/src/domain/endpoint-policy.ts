import { nextAttemptDelayMs } from './retry-schedule';

/** How one webhook attempt ended, as the sender (app/ports.ts, WebhookSender) reports it. */
export type AttemptOutcome =
  /** 2xx within the timeout. */
  | 'delivered'
  /** 410: the receiver asks for the endpoint to be disabled. */
  | 'gone'
  /** Anything else: another status (3xx included: redirects are never followed), no answer, a timeout. */
  | 'failed'
  /** Refused before connecting: a blocked address (SSRF guard), a scheme not allowed, a malformed URL. */
  | 'refused';

export type EndpointStatus = 'active' | 'disabled';
/** GONE: the receiver answered 410. PERSISTENT_FAILURE: no success for the configured period. */
export type DisabledReason = 'GONE' | 'PERSISTENT_FAILURE';

export interface EndpointState {
  status: EndpointStatus;
  /** The first failure since the last success; null while healthy. */
  failingSince: Date | null;
}

export type EndpointChange =
  | { kind: 'unchanged' }
  | { kind: 'recovered' }
  | { kind: 'failing'; since: Date }
  | { kind: 'disable'; reason: DisabledReason };

export type DeliveryNext =
  { status: 'delivered' } | { status: 'pending'; nextAttemptAt: Date } | { status: 'failed' };

export interface AttemptFacts {
  outcome: AttemptOutcome;
  /** Attempts made so far, this one included. */
  attemptsMade: number;
  retryAfterMs?: number;
  now: Date;
  schedule: readonly number[];
  endpoint: EndpointState;
  disableAfterMs: number;
  random?: () => number;
}

/**
 * What one attempt's outcome does to its delivery and to the program's endpoint. A success heals the endpoint;
 * a 410 disables it at once (the receiver asked for it); other failures retry on the schedule (Retry-After
 * respected) and, once the endpoint has had no success for `disableAfterMs`, disable it. A disabled endpoint
 * takes no more attempts, so a delivery that failed there is over.
 */
export function afterAttempt(facts: AttemptFacts): { delivery: DeliveryNext; endpoint: EndpointChange } {
  const { outcome, now, endpoint } = facts;
  if (outcome === 'delivered') {
    const healed = endpoint.status === 'active' && endpoint.failingSince !== null;
    return {
      delivery: { status: 'delivered' },
      endpoint: healed ? { kind: 'recovered' } : { kind: 'unchanged' },
    };
  }
  if (endpoint.status === 'disabled')
    return { delivery: { status: 'failed' }, endpoint: { kind: 'unchanged' } };
  if (outcome === 'gone')
    return { delivery: { status: 'failed' }, endpoint: { kind: 'disable', reason: 'GONE' } };
  const since = endpoint.failingSince ?? now;
  if (now.getTime() - since.getTime() >= facts.disableAfterMs)
    return { delivery: { status: 'failed' }, endpoint: { kind: 'disable', reason: 'PERSISTENT_FAILURE' } };
  const change: EndpointChange =
    endpoint.failingSince === null ? { kind: 'failing', since } : { kind: 'unchanged' };
  const delay = nextAttemptDelayMs(facts.schedule, facts.attemptsMade, facts.retryAfterMs, facts.random);
  if (delay === undefined) return { delivery: { status: 'failed' }, endpoint: change };
  return {
    delivery: { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay) },
    endpoint: change,
  };
}
