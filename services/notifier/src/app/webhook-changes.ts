import type { Transaction } from '@eligo/runtime';
import { activateEndpoint } from '../repository/endpoints.repository';
import { endPendingDeliveries } from '../repository/deliveries.repository';
import type { AppContext } from './context';

/**
 * WebhookConfigured: the settings cached for the program are dropped (its URL or secret changed), and its
 * endpoint starts healthy again; configuring the webhook is how an owner re-enables a disabled one (a
 * configuration from before the disable, whose event came late, does not).
 */
export async function onWebhookConfigured(
  trx: Transaction,
  ctx: AppContext,
  e: { programId: string; accountId: string; occurredAt?: Date | undefined },
): Promise<void> {
  ctx.programs.forget(e.programId);
  const now = ctx.now();
  await activateEndpoint(trx, e.programId, e.accountId, e.occurredAt ?? now, now);
}

/** WebhookRemoved: nothing is sent any more; what was waiting is cancelled (the log keeps it). */
export async function onWebhookRemoved(
  trx: Transaction,
  ctx: AppContext,
  e: { programId: string },
): Promise<void> {
  ctx.programs.forget(e.programId);
  const cancelled = await endPendingDeliveries(trx, e.programId, 'cancelled');
  if (cancelled > 0)
    ctx.logger.info({ programId: e.programId, cancelled }, 'webhook removed: deliveries cancelled');
}
