import { Metadata, status as Status } from '@grpc/grpc-js';
import CircuitBreaker from 'opossum';
import { GrpcCallError, isHandlerAnswer, isServiceError } from './error-codec';
import { errorMetadataKeys, transportFailureCodes } from './status-mapping';

export interface BreakerOptions {
  /** Calls within the rolling window before the breaker may open at all. */
  volumeThreshold: number;
  /** Share of failing calls (in %) above which it opens. */
  errorThresholdPercentage: number;
  /** How long it stays open before letting one trial call through (half-open). */
  resetTimeoutMs: number;
  /** Length of the window the statistics cover. */
  rollingWindowMs: number;
  /**
   * Status codes that count as failures when the transport reports them; anything else, and any status the
   * peer's handler sent (domain errors, a dependency's outage), counts as a healthy answer.
   */
  tripOn: readonly Status[];
  /**
   * Replaces the tripOn rule for calls that are not gRPC (an HTTP instant-match source): true when the error
   * the call threw counts as a failure.
   */
  isFailure?: (err: unknown) => boolean;
}

export const defaultBreakerOptions: BreakerOptions = {
  volumeThreshold: 5,
  errorThresholdPercentage: 50,
  resetTimeoutMs: 10_000,
  rollingWindowMs: 10_000,
  tripOn: transportFailureCodes,
};

export type BreakerState = 'closed' | 'open' | 'halfOpen' | 'disabled';

/**
 * An opossum breaker around the calls of one client (docs/architecture.md, "Operations"): when a dependency
 * hangs or is down, callers fail fast instead of each waiting out its deadline and piling up. NOT_FOUND and
 * the other domain answers prove the server is healthy, so they never count. Nor does an UNAVAILABLE or
 * DEADLINE_EXCEEDED its handler sent because a service it calls failed: counting those made the gateway's
 * breaker for verification open during a programs outage, and its half-open probes, failing for the same
 * reason, kept it open for reset periods after programs was back. opossum's own timeout stays off: the gRPC
 * deadline already ends the call, whereas opossum's would only stop waiting for it.
 *
 * Recovery: once open, the breaker lets one real call through after resetTimeoutMs (half-open); its success
 * closes the breaker, its failure opens it for another resetTimeoutMs. A probe that reaches a peer which is up
 * therefore closes it, so the peer's own outage is the only thing that keeps it open.
 */
export class CallBreaker {
  private readonly breaker: CircuitBreaker<[() => Promise<unknown>], unknown> | undefined;
  private readonly resetTimeoutMs: number;

  constructor(
    readonly name: string,
    options: Partial<BreakerOptions> | false,
    onStateChange: (state: BreakerState) => void = () => {},
  ) {
    const o = { ...defaultBreakerOptions, ...(options || {}) };
    this.resetTimeoutMs = o.resetTimeoutMs;
    if (options === false) return;
    const tripOn = new Set(o.tripOn);
    const isFailure = o.isFailure;
    this.breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
      name,
      timeout: false,
      volumeThreshold: o.volumeThreshold,
      errorThresholdPercentage: o.errorThresholdPercentage,
      resetTimeout: o.resetTimeoutMs,
      rollingCountTimeout: o.rollingWindowMs,
      // true = "not a failure" for opossum.
      errorFilter: isFailure
        ? (err: unknown) => !isFailure(err)
        : (err: unknown) => !(isServiceError(err) && tripOn.has(err.code) && !isHandlerAnswer(err)),
    });
    this.breaker.on('open', () => onStateChange('open'));
    this.breaker.on('halfOpen', () => onStateChange('halfOpen'));
    this.breaker.on('close', () => onStateChange('closed'));
  }

  /**
   * `probe` tells the call it is the half-open trial. A channel whose peer was down sits in reconnect backoff
   * for up to its max backoff (2 s) after the peer is back, failing calls at once meanwhile; a probe sent then
   * would fail and keep the breaker open for another full reset period. Send it with waitForReady (bounded by
   * its deadline), so that it waits for the reconnection instead.
   */
  async run<T>(call: (probe: boolean) => Promise<T>): Promise<T> {
    if (!this.breaker) return call(false);
    // opossum lets the first call after halfOpen through (pendingClose) and refuses the others until it ends.
    const probe = this.breaker.halfOpen && this.breaker.pendingClose;
    try {
      return (await this.breaker.fire(() => call(probe))) as T;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'EOPENBREAKER') throw circuitOpenError(this.name, this.resetTimeoutMs);
      if (code === 'ESHUTDOWN') throw new GrpcCallError(Status.CANCELLED, `client of ${this.name} is closed`);
      throw err;
    }
  }

  get state(): BreakerState {
    if (!this.breaker) return 'disabled';
    if (this.breaker.opened) return 'open';
    return this.breaker.halfOpen ? 'halfOpen' : 'closed';
  }

  shutdown(): void {
    this.breaker?.shutdown();
  }
}

/** UNAVAILABLE, marked so that decodeGrpcError reports circuitOpen and the retry loop leaves it alone. */
export function circuitOpenError(name: string, resetTimeoutMs: number): GrpcCallError {
  const metadata = new Metadata();
  metadata.set(errorMetadataKeys.circuitOpen, 'true');
  return new GrpcCallError(
    Status.UNAVAILABLE,
    `circuit open for ${name}: failing fast for up to ${resetTimeoutMs} ms`,
    metadata,
  );
}
