import { currentTraceParent, type EventContext, type Transaction } from '@eligo/runtime';
import { nextAttemptDelayMs } from '../domain/retry-schedule';
import {
  deliveryBody,
  skipReason,
  type NotifierEventType,
  type WebhookSettings,
} from '../domain/notifications';
import {
  insertDeliveries,
  insertDelivery,
  latestDeliveriesOf,
  type NewDelivery,
} from '../repository/deliveries.repository';
import { afterCommit, type AppContext } from './context';
import type { WebhookLookup } from './ports';
import { newDeliveryId } from '../domain/ids';

/** A verification event the notifier may deliver (its ce_id makes the delivery unique). */
export interface NotificationEvent {
  sourceEventId: string;
  type: NotifierEventType;
  verificationId: string;
  programId: string;
  accountId: string;
  occurredAt: Date;
}

/**
 * The program's webhook for an event of consumer transaction `trx`; undefined when it has none (or the program
 * is unknown). One lookup per program answers for every event of the transaction, "no webhook" included,
 * which the programs port does not keep (a webhook configured a moment before an event must be found): the
 * events were all received before the transaction began, so a lookup made in it reads the programs as they
 * were after each of those events occurred.
 */
async function webhookOf(
  ctx: AppContext,
  trx: Transaction,
  programId: string,
): Promise<WebhookSettings | undefined> {
  let byProgram = lookups.get(trx);
  if (!byProgram) lookups.set(trx, (byProgram = new Map()));
  let lookup = byProgram.get(programId);
  if (!lookup) byProgram.set(programId, (lookup = ctx.programs.webhookOf(programId)));
  const found = await lookup;
  return found.kind === 'webhook' ? found.webhook : undefined;
}

/** Per consumer transaction, the webhook lookups its events made, by program. */
const lookups = new WeakMap<Transaction, Map<string, Promise<WebhookLookup>>>();

/**
 * A verification event that stands for a notification: a pending delivery, due at once, is recorded in the
 * consumer's transaction (with the event's inbox row). Skipped when the program has no webhook, did not opt
 * in to this type, or its endpoint is disabled. When this process has an attempt slot free, the delivery is
 * recorded already leased to it and attempted as soon as the transaction committed: the first attempt, the
 * one latency is about, needs no claim. Otherwise the dispatcher is woken to claim it. The deliveries of all
 * the events a consumer transaction applies are recorded together, with one statement, before it commits.
 */
export async function onNotification(
  { trx, beforeCommit }: Pick<EventContext, 'trx' | 'beforeCommit'>,
  ctx: AppContext,
  n: NotificationEvent,
): Promise<void> {
  const skip = skipReason(n.type, await webhookOf(ctx, trx, n.programId));
  if (skip) {
    ctx.logger.debug(
      { programId: n.programId, verificationId: n.verificationId, type: n.type, skip },
      'no delivery',
    );
    return;
  }
  const now = ctx.now();
  const nextAttemptAt = firstAttemptAt(ctx, now);
  const lease = nextAttemptAt <= now ? ctx.deliveries.reserve() : undefined;
  let batch = pendingDeliveries.get(trx);
  if (!batch) {
    const recording: NewDelivery[] = (batch = []);
    const created = new Set<NewDelivery>();
    pendingDeliveries.set(trx, recording);
    beforeCommit(async () => {
      const ids = await insertDeliveries(trx, recording);
      for (const d of recording) if (ids.has(d.id)) created.add(d);
    });
    afterCommit(
      trx,
      () => {
        for (const d of recording) if (d.lockedUntil && !created.has(d)) ctx.deliveries.release();
        for (const d of created) deliveryCreated(ctx, d);
      },
      () => {
        for (const d of recording) if (d.lockedUntil) ctx.deliveries.release();
      },
    );
  }
  batch.push({
    id: newDeliveryId(),
    programId: n.programId,
    accountId: n.accountId,
    verificationId: n.verificationId,
    eventType: n.type,
    sourceEventId: n.sourceEventId,
    body: deliveryBody(n.verificationId, n.type),
    eventAt: n.occurredAt,
    createdAt: now,
    nextAttemptAt,
    // Set: leased to this process, which attempts it as soon as the transaction committed.
    lockedUntil: lease ?? null,
    refireOf: null,
    traceParent: currentTraceParent(),
  });
}

/** Per consumer transaction, the deliveries its events made so far (recorded by its beforeCommit). */
const pendingDeliveries = new WeakMap<Transaction, NewDelivery[]>();

/** A recorded delivery, once its transaction committed: attempted here at once if leased, else claimed. */
function deliveryCreated(ctx: AppContext, delivery: NewDelivery): void {
  ctx.metrics.delivery('created', delivery.eventType);
  if (!delivery.lockedUntil) return ctx.deliveries.wake();
  ctx.deliveries.handOff({
    ...delivery,
    status: 'pending',
    attemptCount: 0,
    lockedUntil: delivery.lockedUntil,
    deliveredAt: null,
    // Recorded only if the endpoint was not disabled.
    endpointStatus: undefined,
  });
}

/**
 * refireWebhooks: the latest delivery of each type made for the verification is made again, same body, new
 * webhook-id (a receiver that deduplicates by id must see it), pointing at the delivery it repeats. The types
 * still go through today's checks: no webhook, an opt-out or a disabled endpoint sends nothing.
 */
export async function onRefire(
  trx: Transaction,
  ctx: AppContext,
  r: { sourceEventId: string; verificationId: string; programId: string; occurredAt: Date },
): Promise<void> {
  const latest = await latestDeliveriesOf(trx, r.programId, r.verificationId);
  if (latest.length === 0) {
    ctx.logger.debug({ verificationId: r.verificationId }, 'refire: no earlier delivery to resend');
    return;
  }
  const webhook = await webhookOf(ctx, trx, r.programId);
  const now = ctx.now();
  const types: NotifierEventType[] = [];
  for (const original of latest) {
    const skip = skipReason(original.eventType, webhook);
    if (skip) {
      ctx.logger.debug(
        { verificationId: r.verificationId, type: original.eventType, skip },
        'refire: not resent',
      );
      continue;
    }
    const created = await insertDelivery(trx, {
      id: newDeliveryId(),
      programId: original.programId,
      accountId: original.accountId,
      verificationId: original.verificationId,
      eventType: original.eventType,
      sourceEventId: r.sourceEventId,
      body: original.body,
      eventAt: r.occurredAt,
      createdAt: now,
      nextAttemptAt: firstAttemptAt(ctx, now),
      lockedUntil: null,
      refireOf: original.id,
      traceParent: currentTraceParent(),
    });
    if (created) types.push(original.eventType);
  }
  if (types.length === 0) return;
  afterCommit(trx, () => {
    for (const type of types) ctx.metrics.delivery('created', type);
    ctx.deliveries.wake();
  });
}

/** When a new delivery is first attempted: now, unless the retry schedule starts with a delay. */
export function firstAttemptAt(ctx: AppContext, now: Date): Date {
  return new Date(
    now.getTime() + (nextAttemptDelayMs(ctx.webhook.retrySchedule, 0, undefined, ctx.random) ?? 0),
  );
}
