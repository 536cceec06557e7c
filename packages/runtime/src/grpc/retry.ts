import { status as Status } from '@grpc/grpc-js';
import { isHandlerAnswer, isServiceError } from './error-codec';
import { errorMetadataKeys } from './status-mapping';
import type { BackoffOptions } from '../util/backoff';

export interface RetryPolicy {
  /** Attempts in all, the first one included (1 = no retry). */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  multiplier: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  initialBackoffMs: 50,
  maxBackoffMs: 1000,
  multiplier: 2,
};

/**
 * The backoff before retry number n (1 = first retry, `backoffDelay(n, retryBackoff(policy))`): exponential,
 * capped, with jitter in the upper half so that clients that failed together do not come back together, while
 * the budget keeps a known lower bound.
 */
export function retryBackoff(policy: RetryPolicy): BackoffOptions {
  return {
    initialMs: policy.initialBackoffMs,
    maxMs: policy.maxBackoffMs,
    multiplier: policy.multiplier,
    jitter: 'upper-half',
  };
}

/**
 * Only UNAVAILABLE from the transport is retried: it almost always means the request never reached a handler
 * (no connection, server going away); a connection lost mid-call is the rare exception, which is why mutating
 * RPCs must be idempotent. Never DEADLINE_EXCEEDED (the budget is spent) nor a domain error (the answer would
 * be the same). An UNAVAILABLE that a handler sent on purpose carries the
 * error-kind marker and is not retried either: that server already retried its own dependency, and retrying
 * at every hop multiplies the load on whatever is failing.
 */
export function isRetryable(err: unknown): boolean {
  return (
    isServiceError(err) &&
    err.code === Status.UNAVAILABLE &&
    !isHandlerAnswer(err) &&
    (err.metadata?.get(errorMetadataKeys.circuitOpen).length ?? 0) === 0
  );
}
