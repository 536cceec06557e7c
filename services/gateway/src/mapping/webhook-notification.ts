import { programsProgramV1 } from '@eligo/proto';

const { WebhookNotification } = programsProgramV1;

/**
 * The optional webhook notifications a program opts in to (webhook.notifierEventTypes), by their REST name:
 * the proto name without its prefix, which is also the notifierEventType of the delivery. Success is always
 * sent and so is not among them.
 */
export const webhookNotificationNames = [
  'DOCUMENT_REJECTED',
  'MAX_DOC_UPLOAD_ATTEMPTS',
  'EXPIRATION',
] as const;

export type WebhookNotificationName = (typeof webhookNotificationNames)[number];

const byName: Readonly<Record<WebhookNotificationName, programsProgramV1.WebhookNotification>> = {
  DOCUMENT_REJECTED: WebhookNotification.WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED,
  MAX_DOC_UPLOAD_ATTEMPTS: WebhookNotification.WEBHOOK_NOTIFICATION_MAX_DOC_UPLOAD_ATTEMPTS,
  EXPIRATION: WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION,
};

/** The names of a validated body (the schema allows only known ones, each once); absent is none. */
export function webhookNotificationsToProto(
  names: readonly WebhookNotificationName[] | undefined,
): programsProgramV1.WebhookNotification[] {
  return (names ?? []).map((name) => byName[name]);
}

/** In the order above; ones the gateway does not know (a newer service) are left out, not made up. */
export function webhookNotificationsFromProto(
  notifications: readonly programsProgramV1.WebhookNotification[],
): WebhookNotificationName[] {
  return webhookNotificationNames.filter((name) => notifications.includes(byName[name]));
}
