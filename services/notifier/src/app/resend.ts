import { randomUUID } from 'node:crypto';
import { currentTraceParent, failedPrecondition, notFound } from '@eligo/runtime';
import { newDeliveryId } from '../domain/ids';
import { RESEND_REFUSALS, resendRefusal, type ResendRefusal } from '../domain/resend';
import {
  findDelivery,
  hasPendingResend,
  insertDelivery,
  type DeliveryRecord,
} from '../repository/deliveries.repository';
import { findEndpoint } from '../repository/endpoints.repository';
import type { AttemptRecord } from '../repository/attempts.repository';
import { afterCommit, type AppContext } from './context';
import { firstAttemptAt } from './notify';

const refused = (reason: ResendRefusal) => failedPrecondition(RESEND_REFUSALS[reason], { reason });

/**
 * ResendWebhookDelivery (support, the admin API): one delivery of the program made again, as refireWebhooks
 * makes them (notify.ts, onRefire): same body, a new webhook-id so that a receiver deduplicating by id takes
 * it, refire_of naming the delivery it repeats, the whole retry schedule, signed at each attempt with the
 * webhook's secret of that moment, and traced from this call. The delivery asked for is left as it was, so its
 * log keeps telling what happened to it. Which deliveries may be sent again: domain/resend.ts. The original's
 * row is locked for the checks and the insert, so two resends at once make one.
 */
export async function resendWebhookDelivery(
  ctx: AppContext,
  request: { programId: string; webhookId: string },
): Promise<DeliveryRecord & { attempts: AttemptRecord[] }> {
  const lookup = await ctx.programs.webhookOf(request.programId);
  if (lookup.kind === 'unknown-program') throw notFound('Program not found');
  const created = await ctx.db.transaction(async (trx) => {
    const original = await findDelivery(trx, request.programId, request.webhookId, true);
    if (!original) throw notFound('No such delivery of the program');
    const refusal = resendRefusal({
      status: original.status,
      resendPending: original.status !== 'pending' && (await hasPendingResend(trx, original)),
      eventType: original.eventType,
      webhook: lookup.kind === 'webhook' ? lookup.webhook : undefined,
      endpoint: (await findEndpoint(trx, request.programId))?.status,
    });
    if (refusal) throw refused(refusal);
    const now = ctx.now();
    const delivery = {
      id: newDeliveryId(),
      programId: original.programId,
      accountId: original.accountId,
      verificationId: original.verificationId,
      eventType: original.eventType,
      // No event made it: a new id keeps the (source_event_id, event_type) key unique.
      sourceEventId: randomUUID(),
      body: original.body,
      // Event-to-delivery latency is measured from the request, not from the verification's old event.
      eventAt: now,
      createdAt: now,
      nextAttemptAt: firstAttemptAt(ctx, now),
      lockedUntil: null,
      refireOf: original.id,
      traceParent: currentTraceParent(),
    };
    // Refused only by an endpoint disabled since it was read above.
    if (!(await insertDelivery(trx, delivery))) throw refused('webhookDisabled');
    afterCommit(trx, () => {
      ctx.metrics.delivery('created', delivery.eventType);
      ctx.deliveries.wake();
    });
    return delivery;
  });
  return { ...created, status: 'pending', attemptCount: 0, deliveredAt: null, attempts: [] };
}
