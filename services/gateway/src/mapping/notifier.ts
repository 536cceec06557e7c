import { notifierV1 } from '@eligo/proto';
import type {
  MessageJson,
  MessagePageJson,
  WebhookDeliveryJson,
  WebhookDeliveryPageJson,
  WebhookEndpointJson,
} from '../endpoints/admin-notifier';

const {
  WebhookEndpointStatus,
  NotifierEventType,
  DeliveryStatus,
  MessageChannel,
  MessageStatus,
  MessageKind,
} = notifierV1;

type Names<E extends number, N extends string> = Readonly<Partial<Record<E, N>>>;

const endpointStatuses: Names<notifierV1.WebhookEndpointStatus, WebhookEndpointJson['status']> = {
  [WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_NONE]: 'NONE',
  [WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_ACTIVE]: 'ACTIVE',
  [WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_DISABLED]: 'DISABLED',
};
const eventTypes: Names<notifierV1.NotifierEventType, WebhookDeliveryJson['notifierEventType']> = {
  [NotifierEventType.NOTIFIER_EVENT_TYPE_SUCCESS]: 'SUCCESS',
  [NotifierEventType.NOTIFIER_EVENT_TYPE_DOCUMENT_REJECTED]: 'DOCUMENT_REJECTED',
  [NotifierEventType.NOTIFIER_EVENT_TYPE_MAX_DOC_UPLOAD_ATTEMPTS]: 'MAX_DOC_UPLOAD_ATTEMPTS',
  [NotifierEventType.NOTIFIER_EVENT_TYPE_EXPIRATION]: 'EXPIRATION',
};
const deliveryStatuses: Names<notifierV1.DeliveryStatus, WebhookDeliveryJson['status']> = {
  [DeliveryStatus.DELIVERY_STATUS_PENDING]: 'PENDING',
  [DeliveryStatus.DELIVERY_STATUS_DELIVERED]: 'DELIVERED',
  [DeliveryStatus.DELIVERY_STATUS_FAILED]: 'FAILED',
  [DeliveryStatus.DELIVERY_STATUS_CANCELLED]: 'CANCELLED',
};
const channels: Names<notifierV1.MessageChannel, MessageJson['channel']> = {
  [MessageChannel.MESSAGE_CHANNEL_EMAIL]: 'EMAIL',
  [MessageChannel.MESSAGE_CHANNEL_SMS]: 'SMS',
};
const messageKinds: Names<notifierV1.MessageKind, MessageJson['kind']> = {
  [MessageKind.MESSAGE_KIND_SEND_LINK]: 'SEND_LINK',
  [MessageKind.MESSAGE_KIND_EMAIL_LOOP]: 'EMAIL_LOOP',
};
const messageStatuses: Names<notifierV1.MessageStatus, MessageJson['status']> = {
  [MessageStatus.MESSAGE_STATUS_PENDING]: 'PENDING',
  [MessageStatus.MESSAGE_STATUS_SENT]: 'SENT',
  [MessageStatus.MESSAGE_STATUS_CAPTURED]: 'CAPTURED',
  [MessageStatus.MESSAGE_STATUS_FAILED]: 'FAILED',
};

/**
 * An enum value the contract always sets to a known one; unspecified or unknown is a service bug (500,
 * logged), like a missing reply field (present), rather than a value the document does not list.
 */
function named<E extends number, N extends string>(names: Names<E, N>, value: E, what: string): N {
  const name = names[value];
  if (name === undefined) throw new Error(`service replied with ${what} ${value}`);
  return name;
}

const iso = (date: Date | undefined): string | null => date?.toISOString() ?? null;

/** The notifier's endpoint; one it left unset (or unspecified) is a program without a webhook. */
export function webhookEndpointToJson(endpoint: notifierV1.WebhookEndpoint | undefined): WebhookEndpointJson {
  return {
    status:
      endpointStatuses[endpoint?.status ?? WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_NONE] ?? 'NONE',
    failingSince: iso(endpoint?.failingSince),
    disabledAt: iso(endpoint?.disabledAt),
    disabledReason: endpoint?.disabledReason || null,
  };
}

export function webhookDeliveryToJson(d: notifierV1.WebhookDelivery): WebhookDeliveryJson {
  return {
    webhookId: d.webhookId,
    verificationId: d.verificationId,
    notifierEventType: named(eventTypes, d.eventType, 'event type'),
    status: named(deliveryStatuses, d.status, 'delivery status'),
    created: iso(d.createdAt),
    nextAttemptAt: iso(d.nextAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    refireOf: d.refireOf || null,
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: iso(a.startedAt),
      statusCode: a.statusCode || null,
      latencyMs: a.latencyMs,
      error: a.error || null,
    })),
  };
}

export function webhookDeliveryPageToJson(
  reply: notifierV1.ListWebhookDeliveriesResponse,
): WebhookDeliveryPageJson {
  return {
    webhook: webhookEndpointToJson(reply.endpoint),
    deliveries: reply.deliveries.map(webhookDeliveryToJson),
    nextCursor: reply.nextCursor || null,
  };
}

export function messageToJson(m: notifierV1.Message): MessageJson {
  return {
    messageId: m.messageId,
    // A notifier from before email-loop messages leaves the kind unset: all it has are send-link messages.
    kind:
      m.kind === MessageKind.MESSAGE_KIND_UNSPECIFIED
        ? 'SEND_LINK'
        : named(messageKinds, m.kind, 'message kind'),
    requestId: m.requestId,
    programId: m.programId,
    verificationId: m.verificationId || null,
    channel: named(channels, m.channel, 'message channel'),
    recipient: m.recipient,
    subject: m.subject || null,
    body: m.body,
    status: named(messageStatuses, m.status, 'message status'),
    created: iso(m.createdAt),
    sentAt: iso(m.sentAt),
    error: m.error || null,
  };
}

export function messagePageToJson(reply: notifierV1.ListMessagesResponse): MessagePageJson {
  return { messages: reply.messages.map(messageToJson), nextCursor: reply.nextCursor || null };
}
