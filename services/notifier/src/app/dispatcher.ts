import { inStoredTraceSpan, type Logger } from '@eligo/runtime';
import { claimDueDeliveries, type ClaimedDelivery } from '../repository/dispatch.repository';
import { attemptDelivery } from './attempt';
import type { AppContext, DeliveryQueue } from './context';
import { WorkLoop } from './work-loop';

export interface DispatcherOptions {
  /** Attempts in flight at once. */
  concurrency: number;
  /** Poll for retries falling due (new deliveries wake the dispatcher). */
  intervalMs: number;
  /** How long stop() waits for attempts in flight. */
  graceMs: number;
  logger: Logger;
}

/**
 * Sends due deliveries, up to `concurrency` attempts at once. Each delivery is leased in Postgres for longer
 * than an attempt can take, whether claimed by a pass or recorded already leased by a consumer of this
 * process (reserve/handOff): a dispatcher that dies mid-attempt leaves a lease that expires, and the same
 * delivery (same webhook-id) is attempted again by whichever dispatcher comes next.
 */
export class Dispatcher implements DeliveryQueue {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop: WorkLoop;
  /** Slots promised to consumers whose transactions have not ended yet. */
  private reserved = 0;
  private stopping = false;
  /** A pass found every slot taken: the next free slot starts one (otherwise due work waits for the poll). */
  private waitingForSlot = false;

  constructor(
    private readonly app: () => AppContext,
    private readonly options: DispatcherOptions,
  ) {
    this.loop = new WorkLoop({
      name: 'webhook-dispatcher',
      intervalMs: options.intervalMs,
      run: () => this.pass(),
      logger: options.logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  reserve(): Date | undefined {
    if (this.stopping || this.free() <= 0) return undefined;
    this.reserved += 1;
    const ctx = this.app();
    return new Date(ctx.now().getTime() + ctx.webhook.leaseMs);
  }

  handOff(delivery: ClaimedDelivery): void {
    this.reserved -= 1;
    // Stopping: the delivery keeps its lease and is attempted once it expires, by this or another process.
    if (this.stopping) return;
    this.run(this.app(), delivery);
  }

  release(): void {
    this.reserved -= 1;
    this.slotFreed();
  }

  /**
   * Claims nothing more, then waits for the attempts in flight up to the grace. An attempt still running
   * after it is left to its own timeout: its delivery keeps the lease, so it is attempted again later.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.graceMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
    if (this.inFlight.size > 0)
      this.options.logger.warn({ inFlight: this.inFlight.size }, 'stopped with webhook attempts in flight');
  }

  private slotFreed(): void {
    if (!this.waitingForSlot) return;
    this.waitingForSlot = false;
    this.loop.wake();
  }

  private free(): number {
    return this.options.concurrency - this.inFlight.size - this.reserved;
  }

  private async pass(): Promise<boolean> {
    const free = this.free();
    if (free <= 0) {
      this.waitingForSlot = true;
      return false;
    }
    const ctx = this.app();
    const now = ctx.now();
    const leaseUntil = new Date(now.getTime() + ctx.webhook.leaseMs);
    const claimed = await claimDueDeliveries(ctx.db, now, leaseUntil, free);
    for (const delivery of claimed) this.run(ctx, delivery);
    return claimed.length === free;
  }

  private run(ctx: AppContext, delivery: ClaimedDelivery): void {
    // Every attempt continues the trace of the event that made the delivery (webhook-id is the delivery id).
    const traced = inStoredTraceSpan(
      'webhook delivery',
      delivery.traceParent,
      { 'eligo.webhook_id': delivery.id, 'eligo.event_type': delivery.eventType },
      () => attemptDelivery(ctx, delivery),
    );
    const attempt: Promise<void> = traced
      .catch((err: unknown) => {
        // The lease stays: the delivery is attempted again once it expires.
        if (this.stopping)
          this.options.logger.warn(
            { deliveryId: delivery.id },
            'attempt ended after stop; retried after its lease',
          );
        else
          this.options.logger.error(
            { err, deliveryId: delivery.id },
            'webhook attempt could not be recorded',
          );
      })
      .finally(() => {
        this.inFlight.delete(attempt);
        this.slotFreed();
      });
    this.inFlight.add(attempt);
  }
}
