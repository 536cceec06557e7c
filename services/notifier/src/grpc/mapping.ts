import { notifierV1 } from '@eligo/proto';
import type { DeliveriesPage, EndpointView } from '../app/list-deliveries';
import type { MessagesPage } from '../app/list-messages';
import type { NotifierEventType } from '../domain/notifications';
import type { DeliveryStatus } from '../repository/deliveries.repository';
import type { MessageKind, MessageStatus } from '../repository/messages.repository';

const {
  WebhookEndpointStatus: Endpoint,
  NotifierEventType: EventType,
  DeliveryStatus: Delivery,
  MessageChannel: Channel,
  MessageStatus: Message,
  MessageKind: Kind,
} = notifierV1;

const endpointStatus: Record<EndpointView['status'], notifierV1.WebhookEndpointStatus> = {
  NONE: Endpoint.WEBHOOK_ENDPOINT_STATUS_NONE,
  ACTIVE: Endpoint.WEBHOOK_ENDPOINT_STATUS_ACTIVE,
  DISABLED: Endpoint.WEBHOOK_ENDPOINT_STATUS_DISABLED,
};

const eventType: Record<NotifierEventType, notifierV1.NotifierEventType> = {
  SUCCESS: EventType.NOTIFIER_EVENT_TYPE_SUCCESS,
  DOCUMENT_REJECTED: EventType.NOTIFIER_EVENT_TYPE_DOCUMENT_REJECTED,
  MAX_DOC_UPLOAD_ATTEMPTS: EventType.NOTIFIER_EVENT_TYPE_MAX_DOC_UPLOAD_ATTEMPTS,
  EXPIRATION: EventType.NOTIFIER_EVENT_TYPE_EXPIRATION,
};

const deliveryStatus: Record<DeliveryStatus, notifierV1.DeliveryStatus> = {
  pending: Delivery.DELIVERY_STATUS_PENDING,
  delivered: Delivery.DELIVERY_STATUS_DELIVERED,
  failed: Delivery.DELIVERY_STATUS_FAILED,
  cancelled: Delivery.DELIVERY_STATUS_CANCELLED,
};

const messageStatus: Record<MessageStatus, notifierV1.MessageStatus> = {
  pending: Message.MESSAGE_STATUS_PENDING,
  sent: Message.MESSAGE_STATUS_SENT,
  captured: Message.MESSAGE_STATUS_CAPTURED,
  failed: Message.MESSAGE_STATUS_FAILED,
};

const messageKind: Record<MessageKind, notifierV1.MessageKind> = {
  SEND_LINK: Kind.MESSAGE_KIND_SEND_LINK,
  EMAIL_LOOP: Kind.MESSAGE_KIND_EMAIL_LOOP,
};

const optionalDate = (d: Date | null): Date | undefined => d ?? undefined;

export function deliveriesPageToProto(page: DeliveriesPage): notifierV1.ListWebhookDeliveriesResponse {
  return {
    endpoint: {
      status: endpointStatus[page.endpoint.status],
      failingSince: optionalDate(page.endpoint.failingSince),
      disabledAt: optionalDate(page.endpoint.disabledAt),
      disabledReason: page.endpoint.disabledReason,
    },
    deliveries: page.deliveries.map(deliveryToProto),
    nextCursor: page.nextCursor,
  };
}

/** A delivery with its attempts, as the log lists it (and as a resend answers the new one). */
export function deliveryToProto(d: DeliveriesPage['deliveries'][number]): notifierV1.WebhookDelivery {
  return {
    webhookId: d.id,
    verificationId: d.verificationId,
    eventType: eventType[d.eventType],
    status: deliveryStatus[d.status],
    createdAt: d.createdAt,
    nextAttemptAt: d.status === 'pending' ? optionalDate(d.nextAttemptAt) : undefined,
    deliveredAt: optionalDate(d.deliveredAt),
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: a.startedAt,
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      error: a.error ?? '',
    })),
    refireOf: d.refireOf ?? '',
  };
}

export function messagesPageToProto(page: MessagesPage): notifierV1.ListMessagesResponse {
  return {
    messages: page.messages.map((m) => ({
      messageId: m.id,
      requestId: m.requestId,
      programId: m.programId,
      channel: m.channel === 'EMAIL' ? Channel.MESSAGE_CHANNEL_EMAIL : Channel.MESSAGE_CHANNEL_SMS,
      recipient: m.recipient,
      subject: m.subject,
      body: m.body,
      status: messageStatus[m.status],
      createdAt: m.createdAt,
      sentAt: optionalDate(m.sentAt),
      error: m.error ?? '',
      kind: messageKind[m.kind],
      verificationId: m.verificationId ?? '',
    })),
    nextCursor: page.nextCursor,
  };
}
