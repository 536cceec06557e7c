import type { Transaction } from '@eligo/runtime';
import { afterAttempt, type DisabledReason, type EndpointChange } from '../domain/endpoint-policy';
import { webhookDisabled } from '../events/publish';
import { insertAttempt } from '../repository/attempts.repository';
import { endPendingDeliveries, type DeliveryStatus } from '../repository/deliveries.repository';
import {
  endLeasedDelivery,
  lockLeasedDelivery,
  postponeDelivery,
  recordDelivered,
  updateDelivery,
  type ClaimedDelivery,
} from '../repository/dispatch.repository';
import {
  disableEndpoint,
  ensureEndpoint,
  findEndpoint,
  setFailingSince,
} from '../repository/endpoints.repository';
import type { AppContext } from './context';
import type { AttemptResult, WebhookLookup } from './ports';

/** A delivery whose webhook could not be looked up (programs unreachable) is tried again this much later. */
export const LOOKUP_RETRY_MS = 5_000;

/**
 * One attempt of a leased delivery: the webhook's current settings (its URL may have changed since the
 * delivery was made), the signed POST, then the outcome recorded. A removed webhook cancels the delivery, a
 * disabled endpoint fails it, both without an attempt.
 */
export async function attemptDelivery(ctx: AppContext, delivery: ClaimedDelivery): Promise<void> {
  let lookup: WebhookLookup;
  try {
    lookup = await ctx.programs.webhookOf(delivery.programId);
  } catch (err) {
    ctx.logger.warn({ err, deliveryId: delivery.id }, 'webhook settings unavailable; attempt postponed');
    const at = new Date(ctx.now().getTime() + LOOKUP_RETRY_MS);
    await postponeDelivery(ctx.db, delivery.id, delivery.lockedUntil, at);
    return;
  }
  if (lookup.kind !== 'webhook') return endWithoutAttempt(ctx, delivery, 'cancelled');
  if (delivery.endpointStatus === 'disabled') return endWithoutAttempt(ctx, delivery, 'failed');

  const { webhook } = lookup;
  const startedAt = ctx.now();
  const result = await ctx.sender.send({
    url: webhook.callbackUri,
    webhookId: delivery.id,
    timestamp: startedAt,
    body: delivery.body,
    signingSecret: webhook.signingSecret,
    eventType: delivery.eventType,
    requireHttps: webhook.live,
  });
  ctx.metrics.attempt(result.outcome, result.latencyMs / 1000);
  if (result.outcome === 'delivered') await recordSuccess(ctx, delivery, startedAt, result);
  else await recordFailure(ctx, delivery, startedAt, result);
}

async function endWithoutAttempt(
  ctx: AppContext,
  delivery: ClaimedDelivery,
  status: 'cancelled' | 'failed',
): Promise<void> {
  if (await endLeasedDelivery(ctx.db, delivery.id, delivery.lockedUntil, status))
    ctx.metrics.delivery(status, delivery.eventType);
}

const leaseLost = (ctx: AppContext, delivery: ClaimedDelivery) =>
  ctx.logger.warn(
    { deliveryId: delivery.id },
    'delivery lease lost during the attempt; its result is dropped',
  );

async function recordSuccess(
  ctx: AppContext,
  delivery: ClaimedDelivery,
  startedAt: Date,
  result: AttemptResult,
): Promise<void> {
  const now = ctx.now();
  const done = await recordDelivered(ctx.db, delivery, { ...result, startedAt }, now);
  if (!done) return leaseLost(ctx, delivery);
  if (done.previous !== 'delivered') ctx.metrics.delivery('delivered', delivery.eventType);
  ctx.metrics.eventToDelivery((now.getTime() - delivery.eventAt.getTime()) / 1000);
}

/**
 * A failed attempt and what it changes, in one transaction. The endpoint row is locked first (always before
 * delivery rows, as in recordDelivered) so that concurrent attempts of one program see one failure streak and
 * cannot deadlock when one of them disables the endpoint and fails the others.
 */
async function recordFailure(
  ctx: AppContext,
  delivery: ClaimedDelivery,
  startedAt: Date,
  result: AttemptResult,
): Promise<void> {
  const done = await ctx.db.transaction(async (trx) => {
    const now = ctx.now();
    let endpoint = await findEndpoint(trx, delivery.programId, true);
    if (!endpoint) {
      await ensureEndpoint(trx, delivery.programId, delivery.accountId, now);
      endpoint = (await findEndpoint(trx, delivery.programId, true))!;
    }
    const current = await lockLeasedDelivery(trx, delivery.id, delivery.lockedUntil);
    if (!current) return undefined;
    const attempt = current.attemptCount + 1;
    await insertAttempt(trx, {
      deliveryId: delivery.id,
      attempt,
      startedAt,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error ?? null,
    });
    const next = afterAttempt({
      outcome: result.outcome,
      attemptsMade: attempt,
      retryAfterMs: result.retryAfterMs,
      now,
      schedule: ctx.webhook.retrySchedule,
      endpoint,
      disableAfterMs: ctx.webhook.disableAfterMs,
      random: ctx.random,
    });
    // A delivery ended meanwhile (webhook removed, endpoint disabled) stays ended.
    const status: DeliveryStatus = current.status === 'pending' ? next.delivery.status : current.status;
    await updateDelivery(trx, delivery.id, {
      status,
      attemptCount: attempt,
      nextAttemptAt:
        status === 'pending' && next.delivery.status === 'pending' ? next.delivery.nextAttemptAt : null,
    });
    const disabled = await applyEndpointChange(trx, ctx, delivery, next.endpoint, now);
    return { status, changed: status !== current.status, disabled };
  });
  if (!done) return leaseLost(ctx, delivery);
  if (done.changed && done.status !== 'pending') ctx.metrics.delivery(done.status, delivery.eventType);
  if (done.disabled) {
    ctx.metrics.endpointDisabled(done.disabled);
    ctx.logger.warn({ programId: delivery.programId, reason: done.disabled }, 'webhook endpoint disabled');
  }
}

/** Returns the reason when this attempt disabled the endpoint. */
async function applyEndpointChange(
  trx: Transaction,
  ctx: AppContext,
  delivery: ClaimedDelivery,
  change: EndpointChange,
  now: Date,
): Promise<DisabledReason | undefined> {
  switch (change.kind) {
    case 'unchanged':
      return undefined;
    case 'recovered':
      await setFailingSince(trx, delivery.programId, null, now);
      return undefined;
    case 'failing':
      await setFailingSince(trx, delivery.programId, change.since, now);
      return undefined;
    case 'disable':
      await disableEndpoint(trx, delivery.programId, change.reason, now);
      // Nothing more goes to a disabled endpoint: what waits for it fails now, with this delivery.
      await endPendingDeliveries(trx, delivery.programId, 'failed');
      await webhookDisabled(trx, ctx.schema, {
        programId: delivery.programId,
        reason: change.reason,
        occurredAt: now,
        accountId: delivery.accountId,
      });
      return change.reason;
  }
}
