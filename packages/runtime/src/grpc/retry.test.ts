import { Metadata, status as Status } from '@grpc/grpc-js';
import { circuitOpenError } from './breaker';
import { encodeError, GrpcCallError } from './error-codec';
import { isRetryable, retryBackoff, type RetryPolicy } from './retry';
import { unavailable } from '../errors/domain-error';
import { backoffDelay } from '../util/backoff';

const policy: RetryPolicy = { maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 500, multiplier: 2 };

describe('retryBackoff', () => {
  it.each([
    [1, 50, 100],
    [2, 100, 200],
    [3, 200, 400],
    [4, 250, 500],
    [9, 250, 500],
  ])('retry %i waits between %i and %i ms', (retry, low, high) => {
    expect(backoffDelay(retry, retryBackoff(policy), () => 0)).toBe(low);
    expect(backoffDelay(retry, retryBackoff(policy), () => 1)).toBe(high);
  });
});

describe('isRetryable', () => {
  it('retries a transport UNAVAILABLE only', () => {
    expect(isRetryable(new GrpcCallError(Status.UNAVAILABLE, 'connect ECONNREFUSED'))).toBe(true);
    for (const code of [
      Status.DEADLINE_EXCEEDED,
      Status.NOT_FOUND,
      Status.INTERNAL,
      Status.INVALID_ARGUMENT,
    ]) {
      expect(isRetryable(new GrpcCallError(code, 'x'))).toBe(false);
    }
    expect(isRetryable(new Error('not grpc'))).toBe(false);
  });

  it('does not retry an UNAVAILABLE a handler sent on purpose, nor an open circuit', () => {
    const { status } = encodeError(unavailable('store down'));
    expect(isRetryable(new GrpcCallError(status.code, status.details, status.metadata as Metadata))).toBe(
      false,
    );
    expect(isRetryable(circuitOpenError('svc', 1000))).toBe(false);
  });
});
