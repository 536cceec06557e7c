import type { notifierV1 } from '@eligo/proto';
import type { GrpcClient } from '@eligo/runtime';

type Service = typeof notifierV1.NotifierServiceService;

/**
 * The NotifierService RPCs the gateway calls (the operator's views of webhook deliveries and send-link
 * messages, and the resend of a delivery), one typed method each, through the runtime client (deadline, UNAVAILABLE retries, circuit
 * breaker). GetInfo goes through module-info.ts like every service's.
 */
export interface NotifierClient {
  listWebhookDeliveries(
    req: notifierV1.ListWebhookDeliveriesRequest,
  ): Promise<notifierV1.ListWebhookDeliveriesResponse>;
  listMessages(req: notifierV1.ListMessagesRequest): Promise<notifierV1.ListMessagesResponse>;
  resendWebhookDelivery(
    req: notifierV1.ResendWebhookDeliveryRequest,
  ): Promise<notifierV1.ResendWebhookDeliveryResponse>;
}

/** Wraps the module's one notifier channel (clients.ts); built once in createModule. */
export function createNotifierClient(client: GrpcClient<Service>): NotifierClient {
  return {
    listWebhookDeliveries: (req) => client.unary('listWebhookDeliveries', req),
    listMessages: (req) => client.unary('listMessages', req),
    resendWebhookDelivery: (req) => client.unary('resendWebhookDelivery', req),
  };
}
