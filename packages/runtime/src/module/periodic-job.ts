import { backoffDelay, sleep } from '../util/backoff';
import { withComponent } from '../events/component-logger';
import type { Logger } from '../logging/logger';

export interface PeriodicJobOptions {
  /** Names the job in logs. */
  name: string;
  /** The pause between passes when the last one found nothing more to do. */
  intervalMs: number;
  /**
   * One pass. Returns true when it left work behind (a full batch), so the next pass runs at once. It must be
   * safe on several replicas at a time (e.g. FOR UPDATE SKIP LOCKED).
   */
  run: () => Promise<boolean>;
  logger: Logger;
}

/**
 * A background pass repeated for as long as the module runs (expiry sweeps, retention, retries). Passes never
 * overlap; a failed pass is logged and retried with backoff, never thrown; stop() lets the pass in flight
 * finish before the module closes its pool.
 */
export class PeriodicJob {
  private readonly stopping = new AbortController();
  private readonly logger: Logger;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: PeriodicJobOptions) {
    this.logger = withComponent(options.logger, 'periodic-job', { job: options.name });
  }

  start(): void {
    if (this.loop) throw new Error(`job ${this.options.name} already started`);
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      let more = false;
      try {
        more = await this.options.run();
        failures = 0;
      } catch (err) {
        failures += 1;
        this.logger.warn({ err, failures }, 'background pass failed; retrying after a pause');
      }
      if (more && failures === 0) continue;
      const pause =
        failures > 0
          ? backoffDelay(failures, { initialMs: 1_000, maxMs: this.options.intervalMs })
          : this.options.intervalMs;
      await sleep(pause, this.stopping.signal);
    }
  }
}
