import type { Logger } from '@eligo/runtime';

export interface WorkLoopOptions {
  name: string;
  /** The pause between passes when nothing woke the loop and the last pass found nothing more to do. */
  intervalMs: number;
  /** One pass; true when it left work behind, so that the next runs at once. Safe on several replicas. */
  run: () => Promise<boolean>;
  logger: Logger;
}

const MAX_FAILURE_PAUSE_MS = 30_000;

/**
 * A background pass repeated while the module runs, like the runtime's PeriodicJob, but wakeable: work made
 * by this process (a delivery committed by a consumer, an attempt that ended) starts the next pass at once,
 * so the first attempt of a webhook does not wait for the poll, which remains for retries falling due and for
 * work of other replicas. A failed pass is logged and retried after a growing pause, never thrown.
 */
export class WorkLoop {
  private stopping = false;
  private woken = false;
  private interrupt: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: WorkLoopOptions) {}

  start(): void {
    if (this.loop) throw new Error(`loop ${this.options.name} already started`);
    this.loop = this.run();
  }

  wake(): void {
    this.woken = true;
    this.interrupt?.();
  }

  /** Lets the pass in flight finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.interrupt?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      this.woken = false;
      let more = false;
      try {
        more = await this.options.run();
        failures = 0;
      } catch (err) {
        failures += 1;
        this.options.logger.warn(
          { err, loop: this.options.name, failures },
          'background pass failed; retrying',
        );
      }
      if (this.stopping) break;
      if (failures === 0 && (more || this.woken)) continue;
      await this.pause(
        failures === 0
          ? this.options.intervalMs
          : Math.min(MAX_FAILURE_PAUSE_MS, 250 * 2 ** Math.min(failures, 7)),
      );
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.interrupt = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.interrupt = done;
    });
  }
}
