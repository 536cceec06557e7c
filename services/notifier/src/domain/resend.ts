import type { EndpointStatus } from './endpoint-policy';
import { skipReason, type NotifierEventType, type WebhookSettings } from './notifications';

/** Why a delivery cannot be sent again (ResendWebhookDelivery's FAILED_PRECONDITION reasons). */
export type ResendRefusal = 'deliveryPending' | 'noWebhook' | 'notOptedIn' | 'webhookDisabled';

export const RESEND_REFUSALS: Readonly<Record<ResendRefusal, string>> = {
  deliveryPending: 'The delivery is still pending (or already sent again): its attempts go on',
  noWebhook: 'The program has no webhook',
  notOptedIn: 'The program no longer takes this notification',
  webhookDisabled:
    'The webhook endpoint is disabled; configure the webhook again or rotate its secret to enable it',
};

/**
 * Whether a delivery may be sent again, and why not. Any ended delivery may (FAILED, CANCELLED, and
 * DELIVERED: support hears of receivers that lost one), but not one whose attempts go on (it, or an earlier
 * resend of it, is pending): a second click must not make a second delivery. And nothing is sent where a new
 * notification would not be today: no webhook, a type the program no longer takes, a disabled endpoint.
 */
export function resendRefusal(facts: {
  status: 'pending' | 'delivered' | 'failed' | 'cancelled';
  resendPending: boolean;
  eventType: NotifierEventType;
  webhook: WebhookSettings | undefined;
  endpoint: EndpointStatus | undefined;
}): ResendRefusal | undefined {
  if (facts.status === 'pending' || facts.resendPending) return 'deliveryPending';
  const skip = skipReason(facts.eventType, facts.webhook);
  if (skip === 'no-webhook') return 'noWebhook';
  if (skip === 'not-opted-in') return 'notOptedIn';
  if (facts.endpoint === 'disabled') return 'webhookDisabled';
  return undefined;
}
